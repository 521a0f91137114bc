/*
 * What the otattest plugin's plugin and device share: otattest's own names
 * and numbers (from its headers, copied beside this file by
 * scripts/fwupd-build.sh, never spelt again here), D-Bus error mapping and
 * the HSI attributes of a boot record.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <errno.h>
#include <fwupdplugin.h>

#include "otattest/dbus-api.h"
#include "otattest/mailbox.h"
#include "otattest/status.h"

#define FU_OTATTEST_PROTOCOL "org.otattest.image"
#define FU_OTATTEST_SLOT_OTHER OTA_UPDATE_SLOT_OTHER
/* a reset runs ROM, ROM_EXT and BL0 again on an emulated device: seconds */
#define FU_OTATTEST_CALL_TIMEOUT_MS 120000

const gchar *
fu_otattest_slot_name(guint32 slot);
void
fu_otattest_error_from_dbus(GError **error, const GError *dbus_error, const gchar *method);
void
fu_otattest_security_attrs_from_record(FuDevice *device, GVariantDict *props, FuSecurityAttrs *attrs);
