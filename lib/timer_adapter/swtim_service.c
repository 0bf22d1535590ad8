/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#include <stdio.h>
#include <string.h>

#include "swtim_log.h"
#include "swtim_service.h"

int
swtim_service_register(const char *driver, uint16_t adapter_id,
		       rte_service_func run, void *arg, int socket,
		       bool mt_safe, uint32_t *service_id)
{
	struct rte_service_spec spec;
	int ret;

	memset(&spec, 0, sizeof(spec));
	snprintf(spec.name, sizeof(spec.name), "swtim_%s_%u", driver,
		 adapter_id);
	spec.callback = run;
	spec.callback_userdata = arg;
	spec.socket_id = socket;
	spec.capabilities = mt_safe ? RTE_SERVICE_CAP_MT_SAFE : 0;
	ret = rte_service_component_register(&spec, service_id);
	if (ret != 0)
		SWTIM_LOG(ERR, "cannot register service %s: %d", spec.name,
			  ret);
	return ret;
}
