/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <simaai/kernels/types.h>

int
sima_dtype_size (SimaDType dtype)
{
  switch (dtype) {
    case SIMA_DTYPE_FLOAT32:
      return 4;
    case SIMA_DTYPE_FLOAT16:
    case SIMA_DTYPE_BFLOAT16:
      return 2;
    case SIMA_DTYPE_INT8:
    case SIMA_DTYPE_UINT8:
      return 1;
    case SIMA_DTYPE_INT16:
      return 2;
    case SIMA_DTYPE_INT32:
      return 4;
  }
  return 0;
}

const char *
sima_dtype_name (SimaDType dtype)
{
  switch (dtype) {
    case SIMA_DTYPE_FLOAT32:
      return "float32";
    case SIMA_DTYPE_FLOAT16:
      return "float16";
    case SIMA_DTYPE_BFLOAT16:
      return "bfloat16";
    case SIMA_DTYPE_INT8:
      return "int8";
    case SIMA_DTYPE_UINT8:
      return "uint8";
    case SIMA_DTYPE_INT16:
      return "int16";
    case SIMA_DTYPE_INT32:
      return "int32";
  }
  return "unknown";
}

const char *
sima_layout_name (SimaLayout layout)
{
  switch (layout) {
    case SIMA_LAYOUT_CONTIGUOUS:
      return "contiguous";
    case SIMA_LAYOUT_STRIDED:
      return "strided";
    case SIMA_LAYOUT_MLA_TILED:
      return "mla-tiled";
    case SIMA_LAYOUT_MLA_CBLOCKED:
      return "mla-cblocked";
  }
  return "unknown";
}

const char *
sima_channels_name (SimaChannels channels)
{
  switch (channels) {
    case SIMA_CHANNELS_COMPACT:
      return "compact";
    case SIMA_CHANNELS_PAD16:
      return "pad16";
  }
  return "unknown";
}
