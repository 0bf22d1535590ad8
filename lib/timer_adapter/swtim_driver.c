/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The driver list. Drivers add themselves from constructors, before main()
 * runs and before any other thread exists, so the list needs no lock.
 *
 * Besides the list, drivers are numbered in registration order: an adapter
 * lives in memory every process of a DPDK multi-process group shares, and
 * function pointers do not (each process maps the library where it
 * likes), so the adapter names its driver by number and each process
 * finds its own copy of the driver's ops under that number.
 */

#include <string.h>

#include "swtim_adapter_pvt.h"
#include "swtim_base.h"
#include "swtim_driver.h"

static TAILQ_HEAD(, swtim_driver) swtim_driver_list =
	TAILQ_HEAD_INITIALIZER(swtim_driver_list);

const struct swtim_driver *swtim_drivers_by_index[SWTIM_DRIVERS_MAX];
const struct swtim_driver_ops *swtim_driver_ops_by_index[SWTIM_DRIVERS_MAX];
static uint16_t swtim_nb_drivers;

void
swtim_driver_register(struct swtim_driver *driver)
{
	const struct swtim_driver_ops *ops;

	RTE_VERIFY(driver != NULL && driver->name != NULL &&
		   driver->short_name != NULL && driver->ops != NULL);
	ops = driver->ops;
	RTE_VERIFY(ops->init != NULL && ops->teardown != NULL &&
		   ops->arm_burst != NULL && ops->cancel_burst != NULL &&
		   ops->remaining_ticks_get != NULL && ops->due != NULL &&
		   ops->expire != NULL && ops->next_deadline != NULL &&
		   ops->periodic_resume != NULL && ops->waiting_drop != NULL);
	RTE_VERIFY(driver->priv_size >= sizeof(struct swtim_base));
	RTE_VERIFY(strlen(driver->name) < SWTIM_DRIVER_NAME_MAX);
	RTE_VERIFY(strlen(driver->short_name) < SWTIM_DRIVER_SHORT_NAME_MAX);
	RTE_VERIFY(swtim_driver_find(driver->name) == NULL);
	RTE_VERIFY(swtim_nb_drivers < SWTIM_DRIVERS_MAX);
	/* The generic layer's, which are every driver's. */
	driver->min_tick_ns = SWTIM_MIN_TICK_NS;
	driver->caps = SWTIM_DRIVER_CAPS;
	driver->index = swtim_nb_drivers++;
	swtim_drivers_by_index[driver->index] = driver;
	swtim_driver_ops_by_index[driver->index] = driver->ops;
	TAILQ_INSERT_TAIL(&swtim_driver_list, driver, next);
}

const struct swtim_driver *
swtim_driver_find(const char *name)
{
	const struct swtim_driver *drv;

	TAILQ_FOREACH(drv, &swtim_driver_list, next)
		if (strcmp(drv->name, name) == 0)
			return drv;
	return NULL;
}
