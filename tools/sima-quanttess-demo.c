/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sima-quanttess-demo: the project's main job until the GStreamer elements
 * exist. Quantizes an RGB 224x224x3 FP32 image to INT8 H8/W16/C16 pad16 MLA
 * tiles on the A65, prints the plan, a few decoded values, and checks every
 * output byte against the input; then runs the same job on the EV74
 * (emulator unless SIMA_EV74_DEVICE says otherwise) and compares.
 *
 *   sima-quanttess-demo [multiplier] [zero-point]
 */
#define _GNU_SOURCE
#include <simaai/kernels/a65/quanttess.h>
#include <simaai/kernels/ev74/device.h>
#include <simaai/kernels/ev74/quanttess.h>

#include <math.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { H = 224, W = 224, C = 3 };

static void
print_plan (const SimaQuantTessPlan *plan)
{
  const SimaTiledGeometry *g = &plan->output_geometry;
  int i;

  printf ("QuantTess plan: float32 %lldx%lldx%lld -> int8 mla-tiled, "
      "tile H%lld/W%lld/C%lld %s\n", (long long) g->shape[0],
      (long long) g->shape[1], (long long) g->shape[2],
      (long long) g->tiled.tile_shape[SIMA_MLA_H],
      (long long) g->tiled.tile_shape[SIMA_MLA_W],
      (long long) g->tiled.tile_shape[SIMA_MLA_C],
      sima_channels_name (g->tiled.channels));
  printf ("  multiplier %g, zero point %d, rounding %s\n",
      (double) plan->params.multiplier, (int) plan->params.zero_point,
      sima_rounding_name (plan->params.rounding));
  printf ("  input %llu bytes, output %llu bytes, tiles H x W x C = "
      "%lld x %lld x %lld\n", (unsigned long long) plan->input_bytes,
      (unsigned long long) plan->output_bytes,
      (long long) g->tile_count[SIMA_MLA_H],
      (long long) g->tile_count[SIMA_MLA_W],
      (long long) g->tile_count[SIMA_MLA_C]);
  printf ("  tile classes (extent D,H,W,C; stored channels; span; count):\n");
  for (i = 0; i < SIMA_TILE_CLASS_COUNT; i++) {
    const SimaTileClass *cls = &g->classes[i];
    if (cls->count == 0)
      continue;
    printf ("    class %2d: %lld,%lld,%lld,%lld  stored %lld  %llu bytes  x%llu\n",
        i, (long long) cls->extent[0], (long long) cls->extent[1],
        (long long) cls->extent[2], (long long) cls->extent[3],
        (long long) cls->stored_channels,
        (unsigned long long) cls->span_bytes,
        (unsigned long long) cls->count);
  }
}

/* An fd-backed buffer the device can import (a DMA-BUF on the target). */
static void *
shared_buffer (size_t size, int *fd)
{
  void *p;
  *fd = memfd_create ("sima-demo", MFD_CLOEXEC);
  if (*fd < 0 || ftruncate (*fd, (off_t) size) != 0)
    return NULL;
  p = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
  return p == MAP_FAILED ? NULL : p;
}

/* The same job on the EV74: import, encode, bind, run, compare. */
static int
run_on_ev74 (const SimaQuantTessPlan *plan, const float *image,
    const int8_t *a65_tiles)
{
  const char *spec = getenv ("SIMA_EV74_DEVICE") ? NULL : "emulator:workers=2";
  SimaEv74Device *dev = NULL;
  SimaEv74Region *regions[2] = { NULL, NULL };
  SimaEv74Descriptor desc;
  SimaEv74JobStats js;
  SimaEv74Binding bi, bo;
  SimaStatus st;
  int fds[2] = { -1, -1 }, same = 0;
  uint8_t *in, *out;

  in = shared_buffer ((size_t) plan->input_bytes, &fds[0]);
  out = shared_buffer ((size_t) plan->output_bytes, &fds[1]);
  if (in == NULL || out == NULL)
    return 1;
  memcpy (in, image, (size_t) plan->input_bytes);
  st = sima_ev74_device_open (spec, &dev);
  if (st.code == SIMA_OK)
    st = sima_ev74_device_require (dev, SIMA_EV74_ROUTE_QUANTTESS,
        SIMA_EV74_QUANTTESS_CAPABILITY);
  if (st.code == SIMA_OK)
    st = sima_ev74_region_import (dev, fds[0], plan->input_bytes, &regions[0]);
  if (st.code == SIMA_OK)
    st = sima_ev74_region_import (dev, fds[1], plan->output_bytes, &regions[1]);
  if (st.code == SIMA_OK)
    st = sima_ev74_quanttess_encode_relocatable (plan, &desc);
  if (st.code == SIMA_OK) {
    bi = (SimaEv74Binding) { sima_ev74_region_bus_address (regions[0]),
      plan->input_bytes };
    bo = (SimaEv74Binding) { sima_ev74_region_bus_address (regions[1]),
      plan->output_bytes };
    st = sima_ev74_descriptor_bind (&desc, &bi, &bo);
  }
  if (st.code == SIMA_OK)
    st = sima_ev74_run (dev, &desc, regions, 2, INT64_C (5000000000), &js);
  if (st.code == SIMA_OK) {
    same = memcmp (out, a65_tiles, (size_t) plan->output_bytes) == 0;
    printf ("EV74 (%s): %s the A65 bytes; %u workers, %llu DMA commands, "
        "%llu bytes read, %llu written, %llu small rows, %llu exact "
        "stores, %.3f ms estimated device time (cost model), %.3f ms "
        "submit to retire\n",
        sima_ev74_device_spec (dev), same ? "identical to" : "DIFFERENT from",
        js.workers, (unsigned long long) js.dma_commands,
        (unsigned long long) js.dma_bytes_read,
        (unsigned long long) js.dma_bytes_written,
        (unsigned long long) js.dma_small_rows,
        (unsigned long long) js.scalar_stores,
        (double) js.estimated_ns / 1e6, (double) js.device_ns / 1e6);
  } else {
    fprintf (stderr, "EV74 error: %s: %s\n", sima_status_code_name (st.code),
        st.message);
  }
  sima_ev74_region_unref (regions[0]);
  sima_ev74_region_unref (regions[1]);
  sima_ev74_device_unref (dev);
  munmap (in, (size_t) plan->input_bytes);
  munmap (out, (size_t) plan->output_bytes);
  close (fds[0]);
  close (fds[1]);
  return st.code == SIMA_OK && same ? 0 : 1;
}

int
main (int argc, char **argv)
{
  static const int64_t shape[3] = { H, W, C };
  SimaTensorSpec in_spec, out_spec;
  SimaQuantTessRequest req;
  SimaQuantTessPlan plan;
  SimaA65QuantTessPlan a65;
  SimaConstHostBuffer ib;
  SimaHostBuffer ob;
  SimaStatus st;
  float *image;
  int8_t *tiles;
  unsigned char *is_value;
  uint64_t i, far = 0, padding_bad = 0, values = 0;
  int64_t h, w, c;
  double worst = 0.0;

  memset (&in_spec, 0, sizeof in_spec);
  in_spec.rank = 3;
  memcpy (in_spec.shape, shape, sizeof shape);
  in_spec.dtype = SIMA_DTYPE_FLOAT32;
  in_spec.layout = SIMA_LAYOUT_CONTIGUOUS;
  out_spec = in_spec;
  out_spec.dtype = SIMA_DTYPE_INT8;
  out_spec.layout = SIMA_LAYOUT_MLA_TILED;
  out_spec.tiled = (SimaMlaTiled) { { -1, 0, 1, 2 }, { 1, 8, 16, 16 },
    SIMA_CHANNELS_PAD16, 0 };

  memset (&req, 0, sizeof req);
  req.inputs = &in_spec;
  req.n_inputs = 1;
  req.outputs = &out_spec;
  req.n_outputs = 1;
  req.params.multiplier = argc > 1 ? strtof (argv[1], NULL) : 127.0f;
  req.params.zero_point = argc > 2 ? atoi (argv[2]) : 0;
  req.params.rounding = SIMA_ROUNDING_NEAREST_EVEN;

  st = sima_quanttess_check_inference (&req, &plan);
  if (st.code == SIMA_OK)
    st = sima_a65_quanttess_prepare (&plan, &a65);
  if (st.code != SIMA_OK) {
    fprintf (stderr, "error: %s: %s\n", sima_status_code_name (st.code),
        st.message);
    return 1;
  }
  print_plan (&plan);

  /* A smooth RGB test image in [-1, 1]. */
  image = malloc (sizeof (float) * H * W * C);
  tiles = aligned_alloc (16, (size_t) plan.output_bytes);
  is_value = calloc (1, (size_t) plan.output_bytes);
  if (image == NULL || tiles == NULL || is_value == NULL)
    return 1;
  for (h = 0; h < H; h++)
    for (w = 0; w < W; w++)
      for (c = 0; c < C; c++)
        image[(h * W + w) * C + c] = (float) sin (0.05 * (double) h
            + 0.03 * (double) w + 2.1 * (double) c);
  memset (tiles, 0xA5, (size_t) plan.output_bytes);  /* dirty reuse */

  ib = (SimaConstHostBuffer) { image, plan.input_bytes };
  ob = (SimaHostBuffer) { tiles, plan.output_bytes };
  st = sima_a65_quanttess_execute (&a65, &ib, 1, &ob, 1);
  if (st.code != SIMA_OK) {
    fprintf (stderr, "error: %s: %s\n", sima_status_code_name (st.code),
        st.message);
    return 1;
  }

  printf ("  sample values (h, w, c: input -> int8 at byte offset):\n");
  for (i = 0; i < 5; i++) {
    int64_t coords[3] = { (int64_t) (i * 53) % H, (int64_t) (i * 97) % W,
      (int64_t) i % C };
    uint64_t off = sima_tiled_element_offset (&plan.output_geometry, coords);
    printf ("    %3lld,%3lld,%lld: %+.6f -> %4d at %llu\n",
        (long long) coords[0], (long long) coords[1], (long long) coords[2],
        (double) image[(coords[0] * W + coords[1]) * C + coords[2]],
        tiles[off], (unsigned long long) off);
  }

  /* Every logical value within half a step of its input, every other byte
   * (channel padding, alignment gaps) equal to the zero point or zero. */
  for (h = 0; h < H; h++) {
    for (w = 0; w < W; w++) {
      for (c = 0; c < C; c++) {
        int64_t coords[3] = { h, w, c };
        uint64_t off = sima_tiled_element_offset (&plan.output_geometry, coords);
        double x = image[(h * W + w) * C + c];
        double err = fabs (x * (double) plan.params.multiplier
            - (double) (tiles[off] - plan.params.zero_point));
        worst = err > worst ? err : worst;
        far += err > 0.5 + 1e-5;
        is_value[off] = 1;
        values++;
      }
    }
  }
  for (i = 0; i < plan.output_bytes; i++)
    padding_bad += !is_value[i] && tiles[i] != plan.params.zero_point;
  printf ("check: %llu values, %llu farther than half a step from the input "
      "(worst %.6f steps); %llu padding bytes, %llu not the zero point\n",
      (unsigned long long) values, (unsigned long long) far, worst,
      (unsigned long long) (plan.output_bytes - values),
      (unsigned long long) padding_bad);
  {
    int ev74_failed = run_on_ev74 (&plan, image, tiles);
    int ok = far == 0 && padding_bad == 0 && !ev74_failed;
    printf ("%s\n", ok ? "PASS" : "FAIL");
    free (image);
    free (tiles);
    free (is_value);
    return ok ? 0 : 1;
  }
}
