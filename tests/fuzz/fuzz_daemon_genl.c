// SPDX-License-Identifier: MIT
/*
 * otattestd's parser of what the kernel sends (daemon/otattestd/genl-parse.c):
 * generic netlink replies and events, and NLMSG_ERROR with extack. The
 * input is one netlink message; nlmsg_len is forced to the input length
 * (the socket code guarantees that much), everything else is hostile.
 * Every attribute the parser accepts is then read in full, so a bound it
 * failed to check shows up under ASan.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../daemon/otattestd/genl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint8_t sink;

static void touch(const struct nlattr *a)
{
	const uint8_t *p = mnl_attr_get_payload(a);
	uint16_t i, n = mnl_attr_get_payload_len(a);

	for (i = 0; i < n; i++)
		sink ^= p[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct genl_result res;
	struct nlmsghdr *nlh;
	struct genl_error ge;
	size_t i;

	if (size < sizeof(struct nlmsghdr) || size > 65536)
		return 0;
	/* Aligned copy of exactly the input, as recv() would leave it. */
	nlh = malloc(size);
	if (!nlh)
		return 0;
	memcpy(nlh, data, size);
	nlh->nlmsg_len = (uint32_t)size;

	if (genl_parse_attrs(nlh, &res) == 0) {
		for (i = 0; i <= OTATTEST_A_MAX; i++)
			if (res.tb[i])
				touch(res.tb[i]);
		for (i = 0; i < res.n_certs; i++)
			touch(res.certs[i]);
		if (res.tb[OTATTEST_A_DEVICE_NAME])
			sink ^= (uint8_t)strlen(mnl_attr_get_str(res.tb[OTATTEST_A_DEVICE_NAME]));
	}
	if (genl_parse_error(nlh, size, &ge) == 0) {
		if (ge.msg)
			sink ^= (uint8_t)strlen(ge.msg);
		sink ^= (uint8_t)ge.status;
	}
	free(nlh);
	return 0;
}
