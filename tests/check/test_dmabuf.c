/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Device-importable memory end to end, for all three converters on the
 * EV74 emulator:
 *  - fd-backed input (memfd memories of GstFdAllocator and of
 *    GstDmaBufAllocator, and buffers of the pool the element proposes)
 *    reaches the device with 0 copies, and each memory is imported once:
 *    no re-import when it comes round again;
 *  - system-memory input is copied exactly once per buffer;
 *  - the plugin's allocator makes mappable fd memories from the best source
 *    this machine has: DMA-BUF memory only for real DMA-BUFs, plain fd
 *    memory for memfd, so nothing tries to DMA_BUF_IOCTL_SYNC a memfd;
 *  - its memories are mapped read-write once: no map, for reading or
 *    writing, changes the mapping (no mprotect per map);
 *  - propose_allocation offers a pool of those memories the size of the
 *    input with 16-byte alignment; output memories are fd memories, also
 *    when downstream proposes only a system-memory allocator;
 *  - in a pipeline, the converters hand each other fd memories: 0 copies,
 *    and no "Failed to synchronize DMABuf" warning;
 *  - a job that outlives the timeout keeps its input memory alive until
 *    the device retires it; a DMA error frees everything at shutdown.
 * Every output is compared with the A65's bytes.
 */
#define _GNU_SOURCE
#include <gst/allocators/allocators.h>
#include <simaai/kernels/ev74/device.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ev74_testing.h"   /* sima_ev74_device_configure */
#include "check_util.h"

#define PASSES 4
#define N_MEMORIES 3

static guint64
counter (CheckHarness * c, const gchar * name)
{
  guint64 v;
  g_object_get (check_harness_element (c), name, &v, NULL);
  return v;
}

/* A memfd memory holding buf's bytes, wrapped by `wrapper`: a
 * GstFdAllocator (what a memfd is: fd memory) or a GstDmaBufAllocator
 * (what some upstream elements wrap memfds in). */
static GstMemory *
memfd_memory (GstAllocator * wrapper, GstBuffer * buf)
{
  int fd = memfd_create ("sima-test", MFD_CLOEXEC);
  GstMapInfo map;
  GstMemory *mem;

  fail_unless (fd >= 0);
  gst_buffer_map (buf, &map, GST_MAP_READ);
  fail_unless (ftruncate (fd, (off_t) map.size) == 0);
  fail_unless (pwrite (fd, map.data, map.size, 0) == (ssize_t) map.size);
  if (GST_IS_DMABUF_ALLOCATOR (wrapper))
    mem = gst_dmabuf_allocator_alloc (wrapper, fd, map.size);
  else
    mem = gst_fd_allocator_alloc (wrapper, fd, map.size,
        GST_FD_MEMORY_FLAG_NONE);
  gst_buffer_unmap (buf, &map);
  fail_unless (mem != NULL && gst_is_fd_memory (mem));
  return mem;
}

static GstBuffer *
buffer_of (GstMemory * mem)
{
  GstBuffer *buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, gst_memory_ref (mem));
  return buf;
}

/* Pushes `in`, checks the output is one fd memory (what the device
 * imports) holding `want`, and adds that memory to `seen`. */
static void
push_expect (CheckHarness * c, GstBuffer * in, GstBuffer * want,
    GHashTable * seen, const gchar * what)
{
  GstBuffer *out = gst_harness_push_and_pull (c->h, in);
  GstMemory *mem;

  fail_unless (out != NULL, "%s: no output", what);
  fail_unless_equals_int (gst_buffer_n_memory (out), 1);
  mem = gst_buffer_peek_memory (out, 0);
  fail_unless (gst_is_fd_memory (mem), "%s: output is not fd memory", what);
  fail_unless (check_buffers_equal (want, out), "%s: output differs from "
      "the A65's", what);
  if (seen != NULL)
    g_hash_table_add (seen, mem);
  gst_buffer_unref (out);
}

static gchar *
ev74_description (int op)
{
  return g_strdup_printf ("%s device=emulator:workers=2",
      check_ops[op].element);
}

/* Foreign memfd memories wrapped by `wrapper`: imported on first sight,
 * never copied, never imported again. */
static void
memfd_input_zero_copy (GstAllocator * wrapper)
{
  int op, k, pass;

  for (op = 0; op < 3; op++) {
    gchar *desc = ev74_description (op);
    GHashTable *seen = g_hash_table_new (NULL, NULL);
    GstBuffer *want[N_MEMORIES];
    GstMemory *mem[N_MEMORIES];
    guint64 after_first_pass = 0;
    CheckHarness c;

    for (k = 0; k < N_MEMORIES; k++) {
      GstBuffer *in = check_op_input (op, 10 + k);
      mem[k] = memfd_memory (wrapper, in);
      want[k] = check_op_a65_output (op, 10 + k);
      gst_buffer_unref (in);
    }
    check_harness_new (&c, desc, check_ops[op].in_caps, NULL);
    for (pass = 0; pass < PASSES; pass++) {
      for (k = 0; k < N_MEMORIES; k++)
        push_expect (&c, buffer_of (mem[k]), want[k], seen, desc);
      if (pass == 0)
        after_first_pass = counter (&c, "imports");
    }
    fail_unless_equals_uint64 (counter (&c, "copies"), 0);
    /* every input memory and every output memory, once each */
    fail_unless_equals_uint64 (counter (&c, "imports"),
        N_MEMORIES + g_hash_table_size (seen));
    fail_unless_equals_uint64 (counter (&c, "imports"), after_first_pass);
    check_harness_free (&c);
    for (k = 0; k < N_MEMORIES; k++) {
      gst_memory_unref (mem[k]);
      gst_buffer_unref (want[k]);
    }
    g_hash_table_unref (seen);
    g_free (desc);
  }
}

/* memfd as fd memory (GstFdAllocator, what GstShmAllocator gives) and as
 * DMA-BUF memory (a GstDmaBufAllocator around a memfd): the device imports
 * any fd memory. */
GST_START_TEST (test_memfd_input_zero_copy)
{
  GstAllocator *fd = gst_fd_allocator_new ();
  GstAllocator *dmabuf = gst_dmabuf_allocator_new ();

  memfd_input_zero_copy (fd);
  memfd_input_zero_copy (dmabuf);
  gst_object_unref (dmabuf);
  gst_object_unref (fd);
}
GST_END_TEST;

/* The pool upstream is offered: the plugin's allocator (an fd allocator),
 * input-sized, 16-byte aligned. */
static GstBufferPool *
proposed_pool (CheckHarness * c, const gchar * caps_str, guint * size)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstAllocationParams params;
  GstAllocator *allocator = NULL;
  GstBufferPool *pool = NULL;
  GstStructure *config;
  guint min, max;

  fail_unless (gst_pad_peer_query (c->h->srcpad, query));
  fail_unless (gst_query_get_n_allocation_pools (query) >= 1);
  gst_query_parse_nth_allocation_pool (query, 0, &pool, size, &min, &max);
  fail_unless (pool != NULL);
  config = gst_buffer_pool_get_config (pool);
  fail_unless (gst_buffer_pool_config_get_allocator (config, &allocator,
          &params));
  fail_unless (GST_IS_FD_ALLOCATOR (allocator));
  fail_unless (params.align >= 15, "alignment mask %" G_GSIZE_FORMAT,
      params.align);
  gst_structure_free (config);
  /* and the allocator alone, for those who allocate without a pool */
  fail_unless (gst_query_get_n_allocation_params (query) >= 1);
  gst_query_parse_nth_allocation_param (query, 0, &allocator, &params);
  fail_unless (GST_IS_FD_ALLOCATOR (allocator));
  fail_unless (params.align >= 15);
  gst_object_unref (allocator);
  gst_query_unref (query);
  gst_caps_unref (caps);
  return pool;
}

/* The plugin's allocator, as upstream gets it: fd memories from the first
 * source that works here (memfd when this machine has no dma-heap, udmabuf
 * or DRM node), DMA-BUF memory exactly when the source makes DMA-BUFs,
 * mappable, the data at the prefix, the bytes those of the fd. */
GST_START_TEST (test_allocator)
{
  CheckHarness c;
  GstCaps *caps = gst_caps_from_string (CHECK_IN_CAPS);
  GstQuery *query = gst_query_new_allocation (caps, FALSE);
  GstAllocationParams params;
  GstAllocator *allocator = NULL;
  GstMapInfo map, again;
  GstMemory *mem;
  gchar *source = NULL;
  guint8 *view;
  gsize page = (gsize) sysconf (_SC_PAGESIZE), i;

  check_harness_new (&c, "simaquanttess multiplier=1 device=emulator",
      CHECK_IN_CAPS, NULL);
  fail_unless (gst_pad_peer_query (c.h->srcpad, query));
  fail_unless (gst_query_get_n_allocation_params (query) >= 1);
  gst_query_parse_nth_allocation_param (query, 0, &allocator, NULL);
  fail_unless (allocator != NULL && GST_IS_FD_ALLOCATOR (allocator));
  g_object_get (allocator, "source", &source, NULL);
  fail_unless (source != NULL);
  if (!g_file_test ("/dev/dma_heap", G_FILE_TEST_EXISTS)
      && !g_file_test ("/dev/udmabuf", G_FILE_TEST_EXISTS)
      && !g_file_test ("/dev/dri", G_FILE_TEST_EXISTS)) {
    fail_unless_equals_string (source, "memfd");
  } else {
    fail_unless (g_str_has_prefix (source, "dma-heap:")
        || g_str_equal (source, "udmabuf")
        || g_str_has_prefix (source, "drm-dumb:")
        || g_str_equal (source, "memfd"), "source %s", source);
  }

  gst_allocation_params_init (&params);
  params.prefix = 64;
  params.padding = 32;
  params.align = 15;
  mem = gst_allocator_alloc (allocator, 1000, &params);
  fail_unless (mem != NULL && gst_is_fd_memory (mem));
  /* a memfd is not a DMA-BUF: DMA-BUF memory would DMA_BUF_IOCTL_SYNC it
   * at every map and unmap, which fails and logs a warning each time */
  fail_unless_equals_int (gst_is_dmabuf_memory (mem),
      !g_str_equal (source, "memfd"));
  fail_unless_equals_uint64 (mem->offset, 64);
  fail_unless_equals_uint64 (mem->size, 1000);
  fail_unless (mem->maxsize >= 1096 && mem->maxsize % page == 0);
  fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
  fail_unless (((guintptr) map.data - 64) % page == 0);
  for (i = 0; i < map.size; i++)
    map.data[i] = (guint8) (i * 7 + 1);
  gst_memory_unmap (mem, &map);
  /* the bytes are the fd's: another mapping of it sees them */
  view = mmap (NULL, mem->maxsize, PROT_READ, MAP_SHARED,
      gst_fd_memory_get_fd (mem), 0);
  fail_unless (view != MAP_FAILED);
  for (i = 0; i < 1000; i++)
    fail_unless_equals_int (view[64 + i], (guint8) (i * 7 + 1));
  munmap (view, mem->maxsize);
  /* kept mapped: the same address every time */
  fail_unless (gst_memory_map (mem, &map, GST_MAP_READ));
  fail_unless (gst_memory_map (mem, &again, GST_MAP_READ));
  fail_unless (map.data == again.data);
  gst_memory_unmap (mem, &again);
  gst_memory_unmap (mem, &map);
  gst_memory_unref (mem);

  g_free (source);
  gst_object_unref (allocator);
  gst_query_unref (query);
  gst_caps_unref (caps);
  check_harness_free (&c);
}
GST_END_TEST;

/* The permissions ("rw-s", "r--s", ...) of this process's mapping that
 * holds addr, from /proc/self/maps; g_free it. */
static gchar *
mapping_perms (gconstpointer addr)
{
  FILE *f = fopen ("/proc/self/maps", "r");
  gchar *line = NULL, *perms = NULL;
  size_t cap = 0;

  fail_unless (f != NULL);
  while (perms == NULL && getline (&line, &cap, f) > 0) {
    unsigned long lo, hi;
    char p[5];

    if (sscanf (line, "%lx-%lx %4s", &lo, &hi, p) == 3
        && (guintptr) addr >= lo && (guintptr) addr < hi)
      perms = g_strdup (p);
  }
  free (line);
  fclose (f);
  fail_unless (perms != NULL, "no mapping holds %p", addr);
  return perms;
}

/* Maps mem for reading and writing in turn: every map returns the same
 * address and finds the mapping read-write. */
static void
check_maps_stay_read_write (GstMemory * mem, const gchar * what)
{
  static const GstMapFlags order[] = { GST_MAP_READ, GST_MAP_WRITE,
    GST_MAP_READ, GST_MAP_READWRITE, GST_MAP_WRITE, GST_MAP_READ
  };
  guint8 *first = NULL;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (order); i++) {
    GstMapInfo map;
    gchar *perms;

    fail_unless (gst_memory_map (mem, &map, order[i]), "%s: map %u", what, i);
    if (i == 0)
      first = map.data;
    fail_unless (map.data == first, "%s: map %u moved the data", what, i);
    perms = mapping_perms (map.data);
    fail_unless (g_str_has_prefix (perms, "rw"), "%s: map %u (flags %d) "
        "found the mapping %s", what, i, order[i], perms);
    g_free (perms);
    gst_memory_unmap (mem, &map);
  }
}

/* GstFdMemory with GST_FD_MEMORY_FLAG_KEEP_MAPPED keeps the mapping of its
 * first map, with that map's protection; a later map asking for access the
 * mapping lacks (READ after WRITE, WRITE after READ) mprotects the whole
 * mapping to exactly that access. A pooled memory the source writes and
 * the element reads paid two mprotect calls (and, with several threads,
 * TLB shootdowns) per buffer. The plugin's memories are mapped read-write
 * once when allocated, so every map asks for a subset of what the mapping
 * has: it is read-write at every map, from the first, and never changes. */
GST_START_TEST (test_maps_stay_read_write)
{
  CheckHarness c;
  GstAllocationParams params;
  GstAllocator *allocator = NULL;
  GstBufferPool *pool;
  GstStructure *config;
  GstBuffer *buf[2];
  GstMemory *mem;
  guint size, round, k;

  check_harness_new (&c, "simaquanttess multiplier=1 device=emulator",
      CHECK_IN_CAPS, NULL);
  pool = proposed_pool (&c, CHECK_IN_CAPS, &size);
  config = gst_buffer_pool_get_config (pool);
  fail_unless (gst_buffer_pool_config_get_allocator (config, &allocator,
          &params));
  gst_object_ref (allocator);
  gst_structure_free (config);

  /* the allocator's memories */
  mem = gst_allocator_alloc (allocator, 1000, &params);
  fail_unless (mem != NULL);
  check_maps_stay_read_write (mem, "an allocator memory");
  gst_memory_unref (mem);

  /* the pool's, also when they come round again */
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  for (round = 0; round < 2; round++) {
    for (k = 0; k < 2; k++) {
      fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buf[k],
              NULL), GST_FLOW_OK);
      check_maps_stay_read_write (gst_buffer_peek_memory (buf[k], 0),
          "a pool memory");
    }
    for (k = 0; k < 2; k++)
      gst_buffer_unref (buf[k]);
  }
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_object_unref (allocator);
  check_harness_free (&c);
}
GST_END_TEST;

static gint dmabuf_warnings;

static void
count_dmabuf_warnings (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  (void) file;
  (void) function;
  (void) line;
  (void) object;
  (void) message;
  (void) user_data;
  if (level <= GST_LEVEL_WARNING
      && g_str_equal (gst_debug_category_get_name (category), "dmabuf"))
    g_atomic_int_inc (&dmabuf_warnings);
}

/* GstDmaBufAllocator's map and unmap issue DMA_BUF_IOCTL_SYNC and log a
 * warning in the "dmabuf" category when it fails, as it does on any fd
 * that is not a DMA-BUF. The plugin's memories were DMA-BUF memory also on
 * memfd: 6 warnings per buffer on the A65 path (the source writes, the
 * element reads one and writes another), 2 on the EV74 path. Whatever the
 * source, a pipeline of the plugin's elements logs none. */
GST_START_TEST (test_no_dmabuf_sync_warnings)
{
  static const gchar *const converters[] = {
    "simaquanttess multiplier=64 backend=a65",
    "simaquanttess multiplier=64 device=emulator:workers=2",
  };
  guint i;

  gst_debug_set_threshold_for_name ("dmabuf", GST_LEVEL_WARNING);
  gst_debug_add_log_function (count_dmabuf_warnings, NULL, NULL);
  for (i = 0; i < G_N_ELEMENTS (converters); i++) {
    gchar *launch = g_strdup_printf ("simatensorsrc pattern=random seed=3 "
        "num-buffers=10 ! " CHECK_IN_CAPS " ! %s ! fakesink", converters[i]);
    GstElement *pipe = gst_parse_launch (launch, NULL);
    GstMessage *msg;

    fail_unless (pipe != NULL);
    g_atomic_int_set (&dmabuf_warnings, 0);
    gst_element_set_state (pipe, GST_STATE_PLAYING);
    msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe),
        60 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
        "%s did not reach EOS", launch);
    gst_message_unref (msg);
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (pipe);
    fail_unless_equals_int (g_atomic_int_get (&dmabuf_warnings), 0);
    g_free (launch);
  }
  gst_debug_remove_log_function (count_dmabuf_warnings);
  gst_debug_unset_threshold_for_name ("dmabuf");
}
GST_END_TEST;

/* Buffers of the proposed pool come back round with no copy and no new
 * import. */
GST_START_TEST (test_proposed_pool_zero_copy)
{
  int op, k, pass;

  for (op = 0; op < 3; op++) {
    gchar *desc = ev74_description (op);
    SimaTensorSpec spec = check_spec (check_ops[op].in_caps);
    GHashTable *seen = g_hash_table_new (NULL, NULL);
    GstBuffer *want[N_MEMORIES];
    GstBufferPool *pool;
    guint64 after_first_pass = 0;
    CheckHarness c;
    guint size;

    check_harness_new (&c, desc, check_ops[op].in_caps, NULL);
    pool = proposed_pool (&c, check_ops[op].in_caps, &size);
    fail_unless_equals_uint64 (size, check_required_bytes (&spec));
    fail_unless (gst_buffer_pool_set_active (pool, TRUE));
    for (k = 0; k < N_MEMORIES; k++)
      want[k] = check_op_a65_output (op, 20 + k);
    for (pass = 0; pass < PASSES; pass++) {
      for (k = 0; k < N_MEMORIES; k++) {
        GstBuffer *in = check_op_input (op, 20 + k), *buf = NULL;
        GstMapInfo a, b;

        fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buf,
                NULL), GST_FLOW_OK);
        fail_unless (gst_is_fd_memory (gst_buffer_peek_memory (buf, 0)));
        g_hash_table_add (seen, gst_buffer_peek_memory (buf, 0));
        gst_buffer_map (in, &a, GST_MAP_READ);
        gst_buffer_map (buf, &b, GST_MAP_WRITE);
        fail_unless_equals_uint64 (b.size, a.size);
        memcpy (b.data, a.data, a.size);
        gst_buffer_unmap (buf, &b);
        gst_buffer_unmap (in, &a);
        gst_buffer_unref (in);
        push_expect (&c, buf, want[k], seen, desc);
      }
      if (pass == 0)
        after_first_pass = counter (&c, "imports");
    }
    fail_unless_equals_uint64 (counter (&c, "copies"), 0);
    /* `seen` holds the pool's memories and the outputs' */
    fail_unless_equals_uint64 (counter (&c, "imports"),
        g_hash_table_size (seen));
    fail_unless_equals_uint64 (counter (&c, "imports"), after_first_pass);
    check_harness_free (&c);
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
    for (k = 0; k < N_MEMORIES; k++)
      gst_buffer_unref (want[k]);
    g_hash_table_unref (seen);
    g_free (desc);
  }
}
GST_END_TEST;

/* System memory is copied into a staging memory of the plugin's
 * allocator: exactly once per buffer, also when downstream proposes a
 * system-memory allocator (the outputs are still the element's fd
 * memories, so nothing is copied out). */
GST_START_TEST (test_system_memory_copied_once)
{
  const guint n = 7;
  int op;
  guint i;

  for (op = 0; op < 3; op++) {
    gchar *desc = ev74_description (op);
    GstBuffer *want = check_op_a65_output (op, 30);
    GstAllocator *sysmem = gst_allocator_find (GST_ALLOCATOR_SYSMEM);
    CheckHarness c;

    check_harness_new (&c, desc, check_ops[op].in_caps, NULL);
    gst_harness_set_propose_allocator (c.h, sysmem, NULL);   /* takes it */
    for (i = 0; i < n; i++) {
      push_expect (&c, check_op_input (op, 30), want, NULL, desc);
      fail_unless_equals_uint64 (counter (&c, "copies"), i + 1);
    }
    check_harness_free (&c);
    gst_buffer_unref (want);
    g_free (desc);
  }
}
GST_END_TEST;

/* Source -> QuantTess -> DetessDequant -> sink: each element allocates
 * from the pool its downstream neighbour proposed, so nothing is copied
 * and the imports stop at the pools' buffers. */
GST_START_TEST (test_pipeline_zero_copy)
{
  const guint n = 40;
  GstElement *pipe = gst_parse_launch ("simatensorsrc pattern=random "
      "seed=5 num-buffers=40 ! " CHECK_IN_CAPS " ! simaquanttess name=q "
      "multiplier=64 device=emulator:workers=2 ! simadetessdequant name=d "
      "scale=0.015625 device=emulator:workers=2 ! fakesink name=s "
      "signal-handoffs=false", NULL);
  GstElement *q, *d, *s;
  GstMessage *msg;
  guint64 copies, imports;
  gint64 rendered = 0;
  guint window = 0;

  fail_unless (pipe != NULL);
  q = gst_bin_get_by_name (GST_BIN (pipe), "q");
  d = gst_bin_get_by_name (GST_BIN (pipe), "d");
  s = gst_bin_get_by_name (GST_BIN (pipe), "s");
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe),
      60 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  {
    GstStructure *stats;
    g_object_get (s, "stats", &stats, NULL);
    gst_structure_get_uint64 (stats, "rendered", (guint64 *) & rendered);
    gst_structure_free (stats);
  }
  fail_unless_equals_int64 (rendered, n);
  g_object_get (q, "copies", &copies, "imports", &imports, NULL);
  fail_unless_equals_uint64 (copies, 0);
  /* two pools' buffers at most (the source's and the output's), as many
   * as the jobs in flight hold (max-inflight of this element, and of its
   * downstream neighbour for the output pool) and a few more: far below
   * one per buffer */
  g_object_get (q, "max-inflight", &window, NULL);
  fail_unless (imports > 0 && imports <= 3 * window + 4, "simaquanttess "
      "imported %" G_GUINT64_FORMAT " memories for %u buffers", imports, n);
  g_object_get (d, "copies", &copies, "imports", &imports, NULL);
  fail_unless_equals_uint64 (copies, 0);
  fail_unless (imports > 0 && imports <= 3 * window + 4, "simadetessdequant "
      "imported %" G_GUINT64_FORMAT " memories for %u buffers", imports, n);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (q);
  gst_object_unref (d);
  gst_object_unref (s);
  gst_object_unref (pipe);
}
GST_END_TEST;

static void
memory_freed (gpointer flag, GstMiniObject * obj)
{
  (void) obj;
  /* from whichever thread drops the last reference */
  g_atomic_int_set ((gint *) flag, TRUE);
}

/* One good buffer, then `fault` on the element's device and a memfd input
 * that must fail with `text`. Returns whether that memory was still alive
 * right after the failure; *freed_at_stop says whether it was gone within
 * 10 s of the element stopping (stop() does not wait for a job the device
 * still runs: the element lets go of its memory when the job retires). */
static gboolean
fault_keeps_memory (const gchar * spec, const gchar * fault,
    const gchar * extra, const gchar * text, gboolean * freed_at_stop)
{
  gchar *desc = g_strdup_printf ("simaquanttess multiplier=64 device=%s %s",
      spec, extra);
  GstAllocator *fd = gst_fd_allocator_new ();
  GstBuffer *in = check_op_input (0, 40);
  gboolean freed = FALSE, alive;
  SimaEv74Device *dev;
  GstMemory *mem;
  CheckHarness c;
  gchar *msg;
  guint i;

  fail_unless (sima_ev74_device_open (spec, &dev).code == SIMA_OK);
  check_harness_new (&c, desc, CHECK_IN_CAPS, NULL);
  gst_buffer_unref (gst_harness_push_and_pull (c.h, gst_buffer_ref (in)));
  fail_unless (sima_ev74_device_configure (dev, fault).code == SIMA_OK);
  mem = memfd_memory (fd, in);
  gst_mini_object_weak_ref (GST_MINI_OBJECT_CAST (mem), memory_freed, &freed);
  /* the buffer takes the only reference: whoever keeps mem alive now is
   * the element */
  fail_unless_equals_int (check_push_failing (&c, buffer_of (mem), &msg),
      GST_FLOW_ERROR);
  gst_memory_unref (mem);
  alive = !g_atomic_int_get (&freed);
  fail_unless (msg && strstr (msg, text), "%s: error %s", fault, msg);
  g_free (msg);
  check_harness_free (&c);
  for (i = 0; i < 1000 && !g_atomic_int_get (&freed); i++)
    g_usleep (10 * 1000);
  *freed_at_stop = g_atomic_int_get (&freed);
  if (!*freed_at_stop)
    gst_mini_object_weak_unref (GST_MINI_OBJECT_CAST (mem), memory_freed,
        &freed);
  sima_ev74_device_configure (dev, "fault=none");
  sima_ev74_device_unref (dev);
  gst_buffer_unref (in);
  gst_object_unref (fd);
  g_free (desc);
  return alive;
}

/* A job that outlives the timeout: the element errors out at once but
 * keeps the memory the device is still reading until the job retires. */
GST_START_TEST (test_timeout_keeps_memory)
{
  gboolean freed_at_stop;

  fail_unless (fault_keeps_memory ("emulator:workers=1,local-kib=70",
          "fault=hang,hang-ms=400", "timeout=20",
          "did not finish within 20 ms", &freed_at_stop),
      "the input memory was freed while the device still held it");
  fail_unless (freed_at_stop, "the input memory was never released");
}
GST_END_TEST;

/* A DMA error mid-stream: the job has retired (with an error), so the
 * element lets go of the memory at once; shutdown is clean. */
GST_START_TEST (test_dma_error_releases_memory)
{
  gboolean freed_at_stop;

  fail_if (fault_keeps_memory ("emulator:workers=2,local-kib=71",
          "fault=dma-error,fault-after-commands=1", "",
          "a DMA transfer failed", &freed_at_stop),
      "the input memory was kept after its job retired with an error");
  fail_unless (freed_at_stop);
}
GST_END_TEST;

static Suite *
dmabuf_suite (void)
{
  Suite *s = suite_create ("dmabuf");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_allocator);
  tcase_add_test (tc, test_maps_stay_read_write);
  tcase_add_test (tc, test_no_dmabuf_sync_warnings);
  tcase_add_test (tc, test_memfd_input_zero_copy);
  tcase_add_test (tc, test_proposed_pool_zero_copy);
  tcase_add_test (tc, test_system_memory_copied_once);
  tcase_add_test (tc, test_pipeline_zero_copy);
  tcase_add_test (tc, test_timeout_keeps_memory);
  tcase_add_test (tc, test_dma_error_releases_memory);
  return s;
}

GST_CHECK_MAIN (dmabuf);
