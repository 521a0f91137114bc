/*
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <fwupdplugin.h>

G_DECLARE_FINAL_TYPE(FuOtattestPlugin, fu_otattest_plugin, FU, OTATTEST_PLUGIN, FuPlugin)
