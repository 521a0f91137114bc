/*
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <fwupdplugin.h>

#define FU_TYPE_OTATTEST_DEVICE (fu_otattest_device_get_type())
G_DECLARE_FINAL_TYPE(FuOtattestDevice, fu_otattest_device, FU, OTATTEST_DEVICE, FuDevice)

FuOtattestDevice *
fu_otattest_device_new(FuContext *ctx,
		       GDBusConnection *connection,
		       const gchar *object_path,
		       const gchar *stage);
const gchar *
fu_otattest_device_get_object_path(FuOtattestDevice *self);
const gchar *
fu_otattest_device_get_stage(FuOtattestDevice *self);
gboolean
fu_otattest_device_refresh(FuOtattestDevice *self, GError **error);
gboolean
fu_otattest_device_is_present(FuOtattestDevice *self);
