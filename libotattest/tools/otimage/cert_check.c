// SPDX-License-Identifier: MIT
/*
 * A delegation certificate checked for a device. The device never checks
 * a certificate on its own, only the images that carry it, so the
 * question "would the device take this certificate" is asked of the most
 * permissive image under it: the certificate's usage, the lowest SVN it
 * allows at or above the device's floor, and for an intermediate a leaf
 * with the same constraints standing in for the leaves to come. That
 * probe is laid out like any image (oti_image_layout), never signed and
 * never written, and judged by the device's policy (oti_device_check with
 * OTI_CHECK_POLICY): the root key the chain names, depth, the hybrid
 * rules, revocation by floor, the lifecycle and device the device has.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include <otattest/keys.h>

#include "otimage.h"
#include "otimage_internal.h"

/* The leaf an intermediate's probe ends in: another key, the same constraints. */
static void stand_in_leaf(const struct oti_cert *inter, struct oti_cert *leaf)
{
	memset(leaf, 0, sizeof(*leaf));
	leaf->dlgc.hdr = inter->dlgc.hdr;
	leaf->dlgc.cert_type = OTA_CERT_LEAF;
	ota_key_id(inter->dlgc.delegate_pubkey, leaf->dlgc.parent_key_id);
	/* Any key but the intermediate's: nothing is verified with it. */
	memset(leaf->dlgc.delegate_pubkey, 0x02, sizeof(leaf->dlgc.delegate_pubkey));
	leaf->dlgc.constraints = inter->dlgc.constraints;
	if (inter->has_dlgs) {
		leaf->has_dlgs = true;
		leaf->dlgs.hdr = inter->dlgs.hdr;
		ota_key_id(leaf->dlgc.delegate_pubkey, leaf->dlgs.delegate_key_id);
		memset(leaf->dlgs.delegate_spx_pubkey, 0x02, sizeof(leaf->dlgs.delegate_spx_pubkey));
	}
}

ota_status_t oti_cert_device_check(const struct oti_device *dev, const struct oti_key *parent,
				   const struct oti_cert *parent_cert, const struct oti_cert *cert,
				   struct oti_verdict *out, struct oti_diag *d)
{
	struct oti_cert chain[OTA_MAX_DELEGATION_DEPTH + 1];
	const struct ota_constraints *leaf;
	struct oti_image_params p;
	struct oti_device probe_dev;
	struct ota_otp_info otp;
	uint8_t leaf_id[OTA_KEY_ID_BYTES], *img;
	uint32_t n = 0, floor = 0;
	size_t len;
	ota_status_t st;

	if (parent_cert)
		chain[n++] = *parent_cert;
	chain[n++] = *cert;
	if (cert->dlgc.cert_type == OTA_CERT_INTERMEDIATE)
		stand_in_leaf(cert, &chain[n++]);
	if (n > OTA_MAX_DELEGATION_DEPTH)
		return oti_diag_set(d, OTA_DELEG_BAD_CHAIN_SHAPE, NULL, "--type",
				    "below an intermediate only a leaf may follow");
	leaf = &chain[n - 1].dlgc.constraints;
	ota_key_id(chain[n - 1].dlgc.delegate_pubkey, leaf_id);

	if (dev)
		probe_dev = *dev;
	else
		memset(&probe_dev, 0, sizeof(probe_dev));
	/* A root parent is the root key, unless the owner config names the keys. */
	if (!parent_cert && !probe_dev.has_owner && !probe_dev.has_root) {
		oti_key_root_entry(parent, OTA_LC_MASK_ALL, &probe_dev.root);
		probe_dev.has_root = true;
	}
	if (probe_dev.has_otp && ota_otp_decode(&probe_dev.otp, &otp) == OTA_OK)
		floor = otp.floor_bl0;

	memset(&p, 0, sizeof(p));
	p.identifier = OTA_ID_BL0;
	p.security_version = floor > leaf->svn_min ? floor : leaf->svn_min;
	if (p.security_version > leaf->svn_max)
		p.security_version = leaf->svn_max; /* the floor check names the revoked delegate */
	p.usage = leaf->usage;
	st = oti_image_layout(&p, leaf_id, chain[n - 1].has_dlgs, chain, n, &img, &len, d);
	if (st != OTA_OK)
		return st;
	st = oti_device_check(&probe_dev, img, len, OTI_CHECK_POLICY, out, d);
	free(img);
	OPENSSL_cleanse(&probe_dev, sizeof(probe_dev));
	return st;
}
