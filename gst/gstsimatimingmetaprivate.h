/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gstsimatimingmetaprivate.h - the plugin's side of the timing meta:
 * registering it and attaching it. Applications read it with
 * gstsimatimingmeta.h.
 */
#ifndef GST_SIMA_TIMING_META_PRIVATE_H
#define GST_SIMA_TIMING_META_PRIVATE_H

#include "sima/gstsimatimingmeta.h"

G_BEGIN_DECLS

/* Registers the meta (once per process) and returns its API type. */
GType gst_sima_timing_meta_api (void);

/* Attaches a timing meta holding *timing to buf. */
void gst_sima_buffer_add_timing (GstBuffer * buf, const GstSimaTiming * timing);

G_END_DECLS

#endif /* GST_SIMA_TIMING_META_PRIVATE_H */
