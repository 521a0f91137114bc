// SPDX-License-Identifier: MIT
/*
 * One failure, end to end: status -> errno + extack (what the kernel
 * sends) -> status again (otattestd) -> D-Bus error name -> exit code
 * (otattestctl). And the parser of what the kernel sends, fed hostile
 * messages.
 */
#include <check.h>
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <string.h>

#include "../../daemon/common/dbus-api.h"
#include "../../daemon/common/errmap.h"
#include "../../daemon/otattestd/genl.h"
#include "tu_main.h"

/* ---- an NLMSG_ERROR as the kernel builds one ---- */

static uint8_t buf[8192];

static size_t put_error_status(int error, const char *msg, bool capped, const void *cookie,
			       size_t cookie_len)
{
	struct nlmsghdr *nlh;
	struct nlmsgerr *e;

	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = error;
	e->msg.nlmsg_len = sizeof(struct nlmsghdr) + (capped ? 0 : 20);
	if (!capped) {
		/* The echoed request body. */
		memset(mnl_nlmsg_put_extra_header(nlh, 20), 0x5a, 20);
	}
	nlh->nlmsg_flags = capped ? NLM_F_CAPPED : 0;
	if (msg || cookie)
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
	if (msg)
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, msg);
	if (cookie)
		mnl_attr_put(nlh, NLMSGERR_ATTR_COOKIE, cookie_len, cookie);
	return nlh->nlmsg_len;
}

static size_t put_error(int error, const char *msg, bool capped)
{
	return put_error_status(error, msg, capped, NULL, 0);
}

/* What otattest.ko sends for st: errno, message, status as a u64 cookie. */
static size_t put_kernel_status(ota_status_t st, const char *msg)
{
	uint64_t cookie = st; /* nl_set_extack_cookie_u64: host byte order */

	return put_error_status(-ota_status_errno(st), msg, true, &cookie, sizeof(cookie));
}

/* The parser, then the mapping: what otattestd does with an error. */
static void from_kernel(struct ota_err *e, size_t len)
{
	struct genl_error ge;

	ck_assert_int_eq(genl_parse_error((struct nlmsghdr *)buf, len, &ge), 0);
	ota_err_from_netlink(e, ge.err, ge.status, ge.msg);
}

/*
 * Every status survives the kernel's encoding and back exactly, and names
 * its class on D-Bus; also when the message is not the status's (an older
 * or newer wording): the status travels in the cookie, not the text.
 */
START_TEST(every_status_round_trips)
{
	unsigned n = 0;

#define X(sname, scls, smod, sidx, smsg)                                                         \
	{                                                                                   \
		struct ota_err e;                                                           \
		const char *dbus;                                                           \
		from_kernel(&e, put_kernel_status(OTA_##sname, smsg));                      \
		ck_assert_uint_eq(e.status, OTA_##sname);                                   \
		ck_assert_uint_eq(e.cls, OTA_CLASS_##scls);                                  \
		ck_assert_str_eq(e.message, smsg);                                           \
		dbus = ota_class_error_name(e.cls);                                         \
		ck_assert_uint_eq(ota_dbus_error_class(dbus), OTA_CLASS_##scls);             \
		ck_assert_int_eq(ota_dbus_error_exit_code(dbus), ota_class_exit_code(OTA_CLASS_##scls)); \
		from_kernel(&e, put_kernel_status(OTA_##sname, "reworded since"));          \
		ck_assert_uint_eq(e.status, OTA_##sname);                                   \
		from_kernel(&e, put_kernel_status(OTA_##sname, NULL));                      \
		ck_assert_uint_eq(e.status, OTA_##sname);                                   \
		n++;                                                                        \
	}
	OTA_STATUS_LIST(X)
#undef X
	ck_assert_uint_gt(n, 100);
}
END_TEST

/* Without a cookie there is no status, whatever the message says. */
START_TEST(no_status_from_message_text)
{
	struct ota_err e;

	from_kernel(&e, put_error(-EKEYREJECTED, ota_status_message(OTA_SIG_ECDSA_INVALID), true));
	ck_assert_uint_eq(e.status, 0);
	ck_assert_uint_eq(e.cls, OTA_CLASS_VERIFICATION);
	ck_assert_str_eq(e.message, ota_status_message(OTA_SIG_ECDSA_INVALID));
	from_kernel(&e, put_error(-ENODEV, ota_status_message(OTA_HOST_NO_DEVICE), true));
	ck_assert_uint_eq(e.status, 0);
	ck_assert_uint_eq(e.cls, OTA_CLASS_NOT_FOUND);
}
END_TEST

/* A cookie whose status the errno contradicts, or no status at all. */
START_TEST(status_and_errno_must_agree)
{
	uint64_t cookie = OTA_SIG_ECDSA_INVALID;
	struct ota_err e;

	from_kernel(&e, put_error_status(-EIO, "x", true, &cookie, sizeof(cookie)));
	ck_assert_uint_eq(e.status, OTA_HOST_PROTOCOL);
	ck_assert_uint_eq(e.cls, OTA_CLASS_PROTOCOL);
	cookie = OTA_OK;
	from_kernel(&e, put_error_status(-EIO, NULL, true, &cookie, sizeof(cookie)));
	ck_assert_uint_eq(e.cls, OTA_CLASS_PROTOCOL);
	/* A status no table knows (a device that lies): said as such. */
	cookie = 0x0a1234;
	from_kernel(&e, put_error_status(-EPROTO, NULL, true, &cookie, sizeof(cookie)));
	ck_assert_uint_eq(e.cls, OTA_CLASS_PROTOCOL);
	ck_assert_ptr_nonnull(strstr(e.message, "0x0a1234"));
}
END_TEST

START_TEST(plain_errnos_have_classes)
{
	struct ota_err e;

	ota_err_from_netlink(&e, EPERM, 0, NULL);
	ck_assert_uint_eq(e.cls, OTA_CLASS_PERMISSION);
	ck_assert_ptr_nonnull(strstr(e.message, "not permitted"));
	ck_assert_uint_eq(ota_errno_class(ENOENT), OTA_CLASS_NOT_FOUND);
	ck_assert_uint_eq(ota_errno_class(EOPNOTSUPP), OTA_CLASS_PROTOCOL);
	ck_assert_uint_eq(ota_errno_class(ENOBUFS), OTA_CLASS_BUSY);
	ck_assert_uint_eq(ota_errno_class(E2BIG), OTA_CLASS_PROTOCOL);
	ck_assert_uint_eq(ota_errno_class(0), OTA_CLASS_OK);
}
END_TEST

START_TEST(unknown_device_status_is_protocol_error)
{
	struct ota_err e;

	ota_err_set_status(&e, 0x0a1234);
	ck_assert_uint_eq(e.cls, OTA_CLASS_PROTOCOL);
	ck_assert_ptr_nonnull(strstr(e.message, "0x0a1234"));
	ota_err_set_status(&e, 0);
	ck_assert_uint_eq(e.cls, OTA_CLASS_PROTOCOL);
}
END_TEST

START_TEST(dbus_names_both_ways)
{
	ck_assert_uint_eq(ota_dbus_error_class("org.freedesktop.DBus.Error.AccessDenied"), OTA_CLASS_PERMISSION);
	ck_assert_uint_eq(ota_dbus_error_class("org.freedesktop.DBus.Error.InvalidArgs"),
			  OTA_CLASS_INVALID_ARGUMENT);
	ck_assert_uint_eq(ota_dbus_error_class("org.freedesktop.DBus.Error.ServiceUnknown"),
			  OTA_CLASS_UNAVAILABLE);
	ck_assert_uint_eq(ota_dbus_error_class("org.freedesktop.DBus.Error.NoReply"), OTA_CLASS_TIMEOUT);
	ck_assert_uint_eq(ota_dbus_error_class(OTA_BUS_ERROR_PREFIX "NoSuchThing"), OTA_CLASS_PROTOCOL);
	ck_assert_uint_eq(ota_dbus_error_class("com.example.Whatever"), OTA_CLASS_PROTOCOL);
	ck_assert_uint_eq(ota_dbus_error_class(NULL), OTA_CLASS_INTERNAL);
	ck_assert_int_eq(ota_dbus_error_exit_code(OTA_BUS_ERROR_PREFIX "Busy"), 17);
	ck_assert_int_eq(ota_dbus_error_exit_code("org.freedesktop.DBus.Error.AccessDenied"), 20);
}
END_TEST

/*
 * The sd-bus error map: setting a class's error returns the class's
 * errno, and a client reading the name back (sd_bus_error_get_errno) gets
 * it too; standard names mean what otattestctl takes them to mean.
 */
START_TEST(sd_bus_error_map_round_trips)
{
	ck_assert_int_ge(ota_bus_errors_register(), 0);
#define X(cname, num, errv, dbus, exitc)                                                  \
	if (num != 0) {                                                                   \
		sd_bus_error be = SD_BUS_ERROR_NULL;                                      \
		struct ota_err e = { .cls = num };                                        \
		snprintf(e.message, sizeof(e.message), "why");                            \
		ck_assert_int_eq(ota_bus_error_set(&be, &e), -(errv));                     \
		ck_assert_str_eq(be.name, OTA_BUS_ERROR_PREFIX dbus);                      \
		ck_assert_int_eq(sd_bus_error_get_errno(&be), errv);                       \
		sd_bus_error_free(&be);                                                   \
	}
	OTA_CLASS_LIST(X)
#undef X
	{
		sd_bus_error be = SD_BUS_ERROR_MAKE_CONST(SD_BUS_ERROR_ACCESS_DENIED, "no");

		ck_assert_int_eq(sd_bus_error_get_errno(&be), EPERM);
	}
	/* An unknown class is a protocol error, never the OK class's name. */
	ck_assert_str_eq(ota_class_error_name(OTA_CLASS_OK), OTA_BUS_ERROR_PREFIX "ProtocolError");
	ck_assert_str_eq(ota_class_error_name(0x77), OTA_BUS_ERROR_PREFIX "ProtocolError");
}
END_TEST

/* Every class has its own exit code, distinct from 0, 1 and 2. */
START_TEST(exit_codes_distinct)
{
	int seen[256] = { 0 };

#define X(name, num, err, dbus, exitc)                            \
	if (num != 0) {                                           \
		ck_assert_int_gt(exitc, 2);                       \
		ck_assert_int_eq(seen[exitc], 0);                 \
		seen[exitc] = 1;                                  \
	}
	OTA_CLASS_LIST(X)
#undef X
}
END_TEST

/* ---- the parser, fed by hand-built (and broken) kernel messages ---- */

static struct nlmsghdr *start(uint8_t cmd)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *gh;

	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = 0x20;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = cmd;
	return nlh;
}

START_TEST(attrs_accepted)
{
	struct nlmsghdr *nlh = start(OTATTEST_CMD_GET_CERTS);
	struct genl_result res;

	mnl_attr_put_u32(nlh, OTATTEST_A_DEVICE, 3);
	mnl_attr_put(nlh, OTATTEST_A_CERT, 3, "abc");
	mnl_attr_put(nlh, OTATTEST_A_CERT, 2, "de");
	mnl_attr_put(nlh, 200, 4, "new!"); /* a newer kernel's attribute: ignored */
	mnl_attr_put(nlh, OTATTEST_A_NONCE, 1, "n"); /* only requests carry it: ignored */
	ck_assert_int_eq(genl_parse_attrs(nlh, &res), 0);
	ck_assert_ptr_null(res.tb[OTATTEST_A_NONCE]);
	ck_assert_uint_eq(mnl_attr_get_u32(res.tb[OTATTEST_A_DEVICE]), 3);
	ck_assert_uint_eq(res.n_certs, 2);
	ck_assert_uint_eq(mnl_attr_get_payload_len(res.certs[1]), 2);
}
END_TEST

START_TEST(attrs_refused)
{
	struct nlmsghdr *nlh;
	struct genl_result res;
	uint8_t big[OTA_RECORD_MAX_BYTES + 1] = { 0 };
	int i;

	nlh = start(OTATTEST_CMD_GET_DEVICE);
	mnl_attr_put_u16(nlh, OTATTEST_A_STATE, 2); /* u32 expected */
	ck_assert_int_eq(genl_parse_attrs(nlh, &res), -EBADMSG);

	nlh = start(OTATTEST_CMD_GET_DEVICE);
	mnl_attr_put_u32(nlh, OTATTEST_A_STATE, 2);
	mnl_attr_put_u32(nlh, OTATTEST_A_STATE, 3); /* which one? */
	ck_assert_int_eq(genl_parse_attrs(nlh, &res), -EBADMSG);

	nlh = start(OTATTEST_CMD_GET_RECORD);
	mnl_attr_put(nlh, OTATTEST_A_RECORD, sizeof(big), big); /* larger than any record */
	ck_assert_int_eq(genl_parse_attrs(nlh, &res), -EBADMSG);

	nlh = start(OTATTEST_CMD_GET_RECORD);
	mnl_attr_put(nlh, OTATTEST_A_RECORD, 16, big); /* shorter than a header */
	ck_assert_int_eq(genl_parse_attrs(nlh, &res), -EBADMSG);

	nlh = start(OTATTEST_CMD_STABLE_SIGN);
	mnl_attr_put(nlh, OTATTEST_A_SIGNATURE, 63, big);
	ck_assert_int_eq(genl_parse_attrs(nlh, &res), -EBADMSG);

	nlh = start(OTATTEST_CMD_GET_CERTS);
	for (i = 0; i < (int)OTA_CERTS_MAX + 1; i++)
		mnl_attr_put(nlh, OTATTEST_A_CERT, 1, "x");
	ck_assert_int_eq(genl_parse_attrs(nlh, &res), -EBADMSG);

	nlh = start(OTATTEST_CMD_GET_DEVICE);
	mnl_attr_put(nlh, OTATTEST_A_DEVICE_NAME, 4, "abcd"); /* not NUL-terminated */
	ck_assert_int_eq(genl_parse_attrs(nlh, &res), -EBADMSG);

	/* The spec's device-name max-len is 31 characters, NUL not counted. */
	nlh = start(OTATTEST_CMD_GET_DEVICE);
	mnl_attr_put_strz(nlh, OTATTEST_A_DEVICE_NAME, "otattest0123456789012345678901256");
	ck_assert_int_eq(genl_parse_attrs(nlh, &res), -EBADMSG);
	nlh = start(OTATTEST_CMD_GET_DEVICE);
	mnl_attr_put_strz(nlh, OTATTEST_A_DEVICE_NAME, "otattest012345678901234567890125");
	ck_assert_int_eq(genl_parse_attrs(nlh, &res), -EBADMSG);
	nlh = start(OTATTEST_CMD_GET_DEVICE);
	mnl_attr_put_strz(nlh, OTATTEST_A_DEVICE_NAME, "otattest01234567890123456789012");
	ck_assert_int_eq(genl_parse_attrs(nlh, &res), 0);

	/* An attribute whose length runs past the message. */
	nlh = start(OTATTEST_CMD_GET_DEVICE);
	mnl_attr_put_u32(nlh, OTATTEST_A_STATE, 2);
	((struct nlattr *)((uint8_t *)nlh + MNL_NLMSG_HDRLEN + 4))->nla_len = 200;
	ck_assert_int_eq(genl_parse_attrs(nlh, &res), -EBADMSG);

	/* A length that is not a multiple of 4 (found by fuzz_daemon_genl). */
	nlh = start(OTATTEST_CMD_GET_DEVICE);
	mnl_attr_put_u32(nlh, OTATTEST_A_STATE, 2);
	mnl_attr_put_u16(nlh, OTATTEST_A_DEVICE, 0);
	nlh->nlmsg_len -= 2;
	ck_assert_int_eq(genl_parse_attrs(nlh, &res), -EBADMSG);

	/* Too short for a genl header. */
	nlh = start(0);
	nlh->nlmsg_len = MNL_NLMSG_HDRLEN + 2;
	ck_assert_int_eq(genl_parse_attrs(nlh, &res), -EBADMSG);
}
END_TEST

START_TEST(extack_parsed)
{
	uint64_t cookie = OTA_SIG_ECDSA_INVALID;
	struct genl_error ge;
	size_t len;

	len = put_error(-EKEYREJECTED, "image ECDSA P-256 signature is invalid", true);
	ck_assert_int_eq(genl_parse_error((struct nlmsghdr *)buf, len, &ge), 0);
	ck_assert_int_eq(ge.err, EKEYREJECTED);
	ck_assert_str_eq(ge.msg, "image ECDSA P-256 signature is invalid");
	ck_assert_uint_eq(ge.status, 0);

	len = put_error(-EPERM, "nope", false);
	ck_assert_int_eq(genl_parse_error((struct nlmsghdr *)buf, len, &ge), 0);
	ck_assert_int_eq(ge.err, EPERM);
	ck_assert_str_eq(ge.msg, "nope");

	/* The cookie, after an echoed request too. */
	len = put_error_status(-EKEYREJECTED, "m", false, &cookie, sizeof(cookie));
	ck_assert_int_eq(genl_parse_error((struct nlmsghdr *)buf, len, &ge), 0);
	ck_assert_uint_eq(ge.status, OTA_SIG_ECDSA_INVALID);
	ck_assert_str_eq(ge.msg, "m");

	len = put_error(0, NULL, true);
	ck_assert_int_eq(genl_parse_error((struct nlmsghdr *)buf, len, &ge), 0);
	ck_assert_int_eq(ge.err, 0);
	ck_assert_ptr_null(ge.msg);
	ck_assert_uint_eq(ge.status, 0);
}
END_TEST

START_TEST(extack_hostile)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	uint64_t cookie = ((uint64_t)1 << 32) | OTA_SIG_ECDSA_INVALID;
	uint32_t short_cookie = OTA_SIG_ECDSA_INVALID;
	struct genl_error ge;
	struct nlmsgerr *e;
	size_t len;

	/* Positive error: not something the kernel sends. */
	len = put_error(5, NULL, true);
	ck_assert_int_eq(genl_parse_error(nlh, len, &ge), -EBADMSG);
	/* Truncated. */
	len = put_error(-EIO, NULL, true);
	ck_assert_int_eq(genl_parse_error(nlh, MNL_NLMSG_HDRLEN + 4, &ge), -EBADMSG);
	/* Claims an echoed request longer than the message. */
	len = put_error(-EIO, "x", false);
	e = mnl_nlmsg_get_payload(nlh);
	e->msg.nlmsg_len = 4096;
	ck_assert_int_eq(genl_parse_error(nlh, len, &ge), -EBADMSG);
	/* nlmsg_len beyond what was received. */
	len = put_error(-EIO, "x", true);
	ck_assert_int_eq(genl_parse_error(nlh, len - 4, &ge), -EBADMSG);
	/* Message attribute without its NUL: ignored, not read past. */
	len = put_error(-EIO, NULL, true);
	nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
	mnl_attr_put(nlh, NLMSGERR_ATTR_MSG, 3, "abc");
	len = nlh->nlmsg_len;
	ck_assert_int_eq(genl_parse_error(nlh, len, &ge), 0);
	ck_assert_ptr_null(ge.msg);
	/* Cookies that are not a status: too short, above 32 bits, zero. */
	len = put_error_status(-EKEYREJECTED, NULL, true, &short_cookie, sizeof(short_cookie));
	ck_assert_int_eq(genl_parse_error(nlh, len, &ge), -EBADMSG);
	len = put_error_status(-EKEYREJECTED, NULL, true, &cookie, sizeof(cookie));
	ck_assert_int_eq(genl_parse_error(nlh, len, &ge), -EBADMSG);
	cookie = 0;
	len = put_error_status(-EKEYREJECTED, NULL, true, &cookie, sizeof(cookie));
	ck_assert_int_eq(genl_parse_error(nlh, len, &ge), -EBADMSG);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("daemon_errmap");
	TCase *tc = tcase_create("errmap");

	tcase_add_test(tc, every_status_round_trips);
	tcase_add_test(tc, no_status_from_message_text);
	tcase_add_test(tc, status_and_errno_must_agree);
	tcase_add_test(tc, plain_errnos_have_classes);
	tcase_add_test(tc, unknown_device_status_is_protocol_error);
	tcase_add_test(tc, dbus_names_both_ways);
	tcase_add_test(tc, exit_codes_distinct);
	tcase_add_test(tc, sd_bus_error_map_round_trips);
	tcase_add_test(tc, attrs_accepted);
	tcase_add_test(tc, attrs_refused);
	tcase_add_test(tc, extack_parsed);
	tcase_add_test(tc, extack_hostile);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(suite)
