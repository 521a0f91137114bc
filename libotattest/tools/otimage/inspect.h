/* SPDX-License-Identifier: MIT */
/* One describer per file format, behind oti_inspect (inspect.c). */
#ifndef OTATTEST_OTIMAGE_INSPECT_H
#define OTATTEST_OTIMAGE_INSPECT_H

#include "otimage_internal.h"

ota_status_t oti_inspect_exact(const uint8_t *buf, size_t len, void *out, size_t size,
			       ota_status_t truncated, ota_status_t bad_size, const char *field,
			       struct oti_diag *d);

ota_status_t oti_inspect_image(struct oti_out *o, const uint8_t *buf, size_t len,
			       const struct oti_device *dev, struct oti_diag *d);
ota_status_t oti_inspect_cert(struct oti_out *o, const uint8_t *buf, size_t len,
			      struct oti_diag *d);
ota_status_t oti_inspect_flash(struct oti_out *o, const uint8_t *buf, size_t len,
			       struct oti_diag *d);
ota_status_t oti_inspect_otp(struct oti_out *o, const uint8_t *buf, size_t len,
			     struct oti_diag *d);
ota_status_t oti_inspect_owner(struct oti_out *o, const uint8_t *buf, size_t len,
			       struct oti_diag *d);
ota_status_t oti_inspect_boot_data(struct oti_out *o, const uint8_t *buf, size_t len,
				   struct oti_diag *d);
ota_status_t oti_inspect_tag_table(struct oti_out *o, const uint8_t *buf, size_t len,
				   struct oti_diag *d);
ota_status_t oti_inspect_idcert(struct oti_out *o, const uint8_t *buf, size_t len,
				struct oti_diag *d);
ota_status_t oti_inspect_revocation(struct oti_out *o, const uint8_t *buf, size_t len,
				    struct oti_diag *d);
ota_status_t oti_inspect_record(struct oti_out *o, const uint8_t *buf, size_t len,
				struct oti_diag *d);
ota_status_t oti_inspect_key(struct oti_out *o, const char *path, const uint8_t *buf, size_t len,
			     struct oti_diag *d);
ota_status_t oti_inspect_x509(struct oti_out *o, const uint8_t *buf, size_t len,
			      struct oti_diag *d);
ota_status_t oti_inspect_evidence(struct oti_out *o, const uint8_t *buf, size_t len,
				  struct oti_diag *d);
ota_status_t oti_inspect_spx_key(struct oti_out *o, const uint8_t *buf, size_t len,
				 struct oti_diag *d);

/* Pieces shared between describers. */
void oti_print_usage(struct oti_out *o, const char *key, const struct ota_usage *u);
void oti_print_constraints(struct oti_out *o, const char *key, const struct ota_constraints *c);
void oti_print_dlgc(struct oti_out *o, const struct ota_dlgc *c, const uint8_t *dlgs);
void oti_print_image_summary(struct oti_out *o, const struct ota_image_view *v);
void oti_print_owner(struct oti_out *o, const struct ota_owner_config *oc);
void oti_print_boot_data(struct oti_out *o, const struct ota_boot_data *bd);
void oti_print_tag_table(struct oti_out *o, const struct ota_tag_table *tt);
void oti_print_status(struct oti_out *o, const char *key, ota_status_t st);
/* The device check's verdict, as "device_check" (sign and inspect print it). */
void oti_print_verdict(struct oti_out *o, const struct oti_verdict *v);

#endif
