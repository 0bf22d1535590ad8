/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The driver list. Drivers add themselves from constructors, before main()
 * runs and before any other thread exists, so the list needs no lock.
 */

#include <string.h>

#include "swtim_driver.h"

static TAILQ_HEAD(, swtim_driver) swtim_driver_list =
	TAILQ_HEAD_INITIALIZER(swtim_driver_list);

void
swtim_driver_register(struct swtim_driver *driver)
{
	RTE_VERIFY(driver != NULL && driver->name != NULL &&
		   driver->ops != NULL);
	RTE_VERIFY(swtim_driver_find(driver->name) == NULL);
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
