/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <simaai/kernels/types.h>

#include <string.h>

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

/* Each name function is total over its enum, so the inverse tries every
 * value: one list of names, not two. */
int
sima_dtype_from_name (const char *name, SimaDType *out)
{
  int v;
  for (v = SIMA_DTYPE_FLOAT32; v <= SIMA_DTYPE_INT32; v++)
    if (name != NULL && strcmp (name, sima_dtype_name ((SimaDType) v)) == 0) {
      *out = (SimaDType) v;
      return 1;
    }
  return 0;
}

int
sima_layout_from_name (const char *name, SimaLayout *out)
{
  int v;
  for (v = SIMA_LAYOUT_CONTIGUOUS; v <= SIMA_LAYOUT_MLA_CBLOCKED; v++)
    if (name != NULL && strcmp (name, sima_layout_name ((SimaLayout) v)) == 0) {
      *out = (SimaLayout) v;
      return 1;
    }
  return 0;
}

int
sima_channels_from_name (const char *name, SimaChannels *out)
{
  int v;
  for (v = SIMA_CHANNELS_COMPACT; v <= SIMA_CHANNELS_PAD16; v++)
    if (name != NULL
        && strcmp (name, sima_channels_name ((SimaChannels) v)) == 0) {
      *out = (SimaChannels) v;
      return 1;
    }
  return 0;
}
