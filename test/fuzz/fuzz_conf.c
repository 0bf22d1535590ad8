/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Fuzz target: the adapter configuration. Every field of struct
 * rte_event_timer_adapter_conf comes from the input, as do the create
 * call (create, create_ext, create_with_driver with each driver), the
 * port callback's answer (a port, or a failure -E), a NULL conf and a
 * second create with the same id.
 *
 * The contract says which refusals apply to a configuration (an invalid
 * device, id, tick, max_tmo_ns, nb_timers or flags: EINVAL; a tick finer
 * than the driver's without F_ADJUST_RES: ERANGE; a failing callback -E:
 * E; the id in use: EEXIST); the create must give one of them when any
 * applies, and an adapter when none does (a huge nb_timers may also be
 * refused: ENOMEM, or EINVAL beyond what a driver can index; so may a
 * socket that does not exist, of which the contract says nothing). An adapter
 * must report the configuration it was given (the tick raised to the
 * driver's finest under F_ADJUST_RES) and be found by lookup; once freed,
 * or after a refusal, lookup finds nothing, and nothing is left behind:
 * rte_malloc memory, memzones, services and event ports are as before.
 */

#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_eventdev.h>
#include <rte_lcore.h>

#include "swtim.h"
#include "fuzz_env.h"
#include "fuzz_input.h"

/* swtim's drivers' finest tick (their min_tick_ns). */
#define DRIVER_MIN_TICK_NS 1000
/* Above this, nb_timers may be refused for want of memory. */
#define NB_TIMERS_FITS (UINT64_C(1) << 16)
/*
 * Above this, a driver may be unable to index nb_timers (EINVAL, swtim.h):
 * the wheel's limit is some 4.2M below 2^31 (corpus/conf/wheel-2-31).
 */
#define NB_TIMERS_INDEXABLE (UINT64_C(1) << 30)

#define KNOWN_FLAGS (RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES | \
		     RTE_EVENT_TIMER_ADAPTER_F_SP_PUT | \
		     RTE_EVENT_TIMER_ADAPTER_F_PERIODIC)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_env_help(*argc, *argv, "every field of the adapter "
		      "configuration, through each create call");
	fuzz_env_init("conf", NULL);
	return 0;
}

/* The errnos a create may answer with: a set of at most a few. */
struct errno_set {
	int err[8];
	unsigned int n;
};

static void
errno_add(struct errno_set *s, int err)
{
	if (s->n < RTE_DIM(s->err))
		s->err[s->n++] = err;
}

static bool
errno_in(const struct errno_set *s, int err)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		if (s->err[i] == err)
			return true;
	return false;
}

/* A 64-bit field: mostly small or near a boundary, sometimes anything. */
static uint64_t
fuzz_field(struct fuzz_input *in)
{
	uint8_t how = fuzz_u8(in);

	switch (how & 3) {
	case 0:
		return fuzz_u8(in);
	case 1:
		return fuzz_u32(in);
	case 2:
		return UINT64_MAX - fuzz_u8(in);
	default:
		return fuzz_u64(in);
	}
}

/* What the contract says the tick in force is. */
static uint64_t
tick_in_force(const struct rte_event_timer_adapter_conf *c)
{
	if (c->timer_tick_ns < DRIVER_MIN_TICK_NS &&
	    (c->flags & RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES))
		return DRIVER_MIN_TICK_NS;
	return c->timer_tick_ns;
}

/* Whether the tick, as timer cycles, fits in 64 bits (swtim.h: ERANGE). */
static bool
tick_fits(uint64_t tick_ns)
{
	unsigned __int128 c = (unsigned __int128)tick_ns * rte_get_timer_hz();

	return (c + NS_PER_S - 1) / NS_PER_S < UINT64_MAX;
}

/* The refusals the contract says apply to c (NULL: none can be told). */
static void
refusals_of(const struct rte_event_timer_adapter_conf *c, bool valid_dev,
	    struct errno_set *s)
{
	uint64_t tick = tick_in_force(c);

	if (c->timer_adapter_id >= SWTIM_ADAPTER_NUM_MAX || !valid_dev ||
	    c->timer_tick_ns == 0 || c->nb_timers == 0 ||
	    c->max_tmo_ns < c->timer_tick_ns || (c->flags & ~KNOWN_FLAGS))
		errno_add(s, EINVAL);
	if (c->timer_tick_ns != 0 && c->timer_tick_ns < DRIVER_MIN_TICK_NS &&
	    !(c->flags & RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES))
		errno_add(s, ERANGE);
	if (tick != 0 && !tick_fits(tick))
		errno_add(s, ERANGE);
	if (c->max_tmo_ns < tick)
		errno_add(s, EINVAL);
}

static bool
socket_exists(int socket_id)
{
	unsigned int i;

	if (socket_id == SOCKET_ID_ANY)
		return true;
	for (i = 0; i < rte_socket_count(); i++)
		if (rte_socket_id_by_idx(i) == socket_id)
			return true;
	return false;
}

enum create_call {
	CALL_CREATE,
	CALL_CREATE_EXT,
	CALL_WITH_WHEEL,
	CALL_WITH_SKIPLIST,
};

/* The port callback's answer: a port, or a failure -E. */
static intptr_t
callback_answer(struct fuzz_input *in)
{
	static const int failures[] = { EINVAL, ENOSPC, EIO, EBUSY, ENODEV };
	uint8_t how = fuzz_u8(in);

	if (how < 192)
		return fuzz_env.app_port + how % FUZZ_NB_APP_PORTS;
	if (how < 250)
		return -failures[how % RTE_DIM(failures)];
	return (int32_t)fuzz_u32(in) | INT32_MIN;
}

static struct swtim_adapter *
create(enum create_call call, const struct rte_event_timer_adapter_conf *c,
       bool with_cb, intptr_t answer)
{
	rte_event_timer_adapter_port_conf_cb_t cb = with_cb ? fuzz_port_cb :
		NULL;
	void *arg = (void *)answer;

	switch (call) {
	case CALL_CREATE:
		return swtim_adapter_create(c);
	case CALL_CREATE_EXT:
		return swtim_adapter_create_ext(c, cb, arg);
	case CALL_WITH_WHEEL:
		return swtim_adapter_create_with_driver(c, cb, arg, "wheel",
							NULL);
	default:
		return swtim_adapter_create_with_driver(c, cb, arg,
							"skiplist", NULL);
	}
}

/* The adapter reports the configuration it was created with. */
static void
adapter_check(struct swtim_adapter *a,
	      const struct rte_event_timer_adapter_conf *c, bool with_cb,
	      intptr_t answer)
{
	struct rte_event_timer_adapter_info info;

	FUZZ_CHECK(swtim_adapter_lookup(c->timer_adapter_id) == a,
		   "lookup of adapter %u", c->timer_adapter_id);
	FUZZ_CHECK(swtim_adapter_get_info(a, &info) == 0, "get_info");
	FUZZ_CHECK(info.min_resolution_ns == tick_in_force(c) &&
		   info.conf.timer_tick_ns == tick_in_force(c),
		   "tick %" PRIu64 " (conf %" PRIu64 "), given %" PRIu64
		   " flags 0x%" PRIx64, info.min_resolution_ns,
		   info.conf.timer_tick_ns, c->timer_tick_ns, c->flags);
	FUZZ_CHECK(info.max_tmo_ns == c->max_tmo_ns &&
		   info.conf.max_tmo_ns == c->max_tmo_ns &&
		   info.conf.nb_timers == c->nb_timers &&
		   info.conf.flags == c->flags &&
		   info.conf.timer_adapter_id == c->timer_adapter_id &&
		   info.conf.event_dev_id == c->event_dev_id &&
		   info.conf.socket_id == c->socket_id &&
		   info.conf.clk_src == c->clk_src,
		   "get_info's conf is not the one given");
	FUZZ_CHECK(!with_cb || info.event_dev_port_id == (uint8_t)answer,
		   "port %u, the callback gave %u", info.event_dev_port_id,
		   (unsigned int)answer);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = fuzz_input_of(data, size);
	struct rte_event_timer_adapter_conf c;
	struct fuzz_resources before, after;
	/* Must refuse with one of these; may refuse with those. */
	struct errno_set refusals = { .n = 0 }, tolerated = { .n = 0 };
	struct rte_event_dev_info dev_info;
	struct swtim_adapter *a;
	uint8_t choices = fuzz_u8(&in);
	enum create_call call = choices & 3;
	bool null_conf = (choices & 0x3c) == 0x3c;
	bool twice = choices & 0x40;
	bool with_cb = call != CALL_CREATE && !(choices & 0x80);
	intptr_t answer = callback_answer(&in);
	uint8_t dev = fuzz_u8(&in);
	uint16_t id = fuzz_u16(&in);
	uint8_t sock;
	bool valid_dev;
	int err;

	memset(&c, 0, sizeof(c));
	/* Mostly the device that exists, and ids in range. */
	c.event_dev_id = dev < 224 ? fuzz_env.dev_id : dev;
	c.timer_adapter_id = id & 0x8000 ? id : id % SWTIM_ADAPTER_NUM_MAX;
	sock = fuzz_u8(&in);
	c.socket_id = sock < 128 ? SOCKET_ID_ANY : sock < 192 ?
		(int)rte_socket_id_by_idx(sock % rte_socket_count()) :
		(int)fuzz_u32(&in);
	c.clk_src = fuzz_u32(&in);
	c.timer_tick_ns = fuzz_field(&in);
	c.max_tmo_ns = fuzz_field(&in);
	c.nb_timers = fuzz_field(&in);
	/* A huge nb_timers is worth trying only now and then: it is slow. */
	if (c.nb_timers > NB_TIMERS_FITS && !(fuzz_u8(&in) & 1))
		c.nb_timers %= NB_TIMERS_FITS;
	c.flags = fuzz_u8(&in) < 240 ? fuzz_u8(&in) & KNOWN_FLAGS :
		fuzz_u64(&in);
	valid_dev = rte_event_dev_info_get(c.event_dev_id, &dev_info) == 0;

	if (null_conf) {
		errno_add(&refusals, EINVAL);
	} else {
		refusals_of(&c, valid_dev, &refusals);
		if (call == CALL_CREATE_EXT && !with_cb)
			errno_add(&refusals, EINVAL);
		/* INT_MIN has no -E: swtim.h gives EINVAL for it. */
		if (with_cb && answer < 0)
			errno_add(&refusals, answer == INT32_MIN ? EINVAL :
				  (int)-answer);
	}

	/*
	 * The contract says nothing of these; memory is refused as such, a
	 * socket that does not exist may be taken as no memory there.
	 */
	if (c.nb_timers > NB_TIMERS_FITS || !socket_exists(c.socket_id))
		errno_add(&tolerated, ENOMEM);
	if (c.nb_timers > NB_TIMERS_INDEXABLE || !socket_exists(c.socket_id))
		errno_add(&tolerated, EINVAL);

	fuzz_resources_get(&before);
	rte_errno = 0;
	a = create(call, null_conf ? NULL : &c, with_cb, answer);
	err = rte_errno;
	if (a == NULL) {
		FUZZ_CHECK(refusals.n != 0 || errno_in(&tolerated, err),
			   "create refused (%s) a valid configuration: id %u"
			   " tick %" PRIu64 " max_tmo %" PRIu64 " nb_timers %"
			   PRIu64 " flags 0x%" PRIx64 " socket %d",
			   rte_strerror(err), c.timer_adapter_id,
			   c.timer_tick_ns, c.max_tmo_ns, c.nb_timers,
			   c.flags, c.socket_id);
		FUZZ_CHECK(errno_in(&refusals, err) ||
			   errno_in(&tolerated, err),
			   "create refused with rte_errno %d (%s), not one "
			   "the contract gives here (first: %d)", err,
			   rte_strerror(err), refusals.err[0]);
	} else {
		FUZZ_CHECK(refusals.n == 0, "create accepted what the "
			   "contract refuses with %d: id %u tick %" PRIu64
			   " max_tmo %" PRIu64 " nb_timers %" PRIu64
			   " flags 0x%" PRIx64, refusals.err[0],
			   c.timer_adapter_id, c.timer_tick_ns, c.max_tmo_ns,
			   c.nb_timers, c.flags);
		adapter_check(a, &c, with_cb, answer);
		if (twice) {
			rte_errno = 0;
			FUZZ_CHECK(create(call, &c, with_cb, answer) == NULL &&
				   rte_errno == EEXIST,
				   "second create of id %u: rte_errno %d",
				   c.timer_adapter_id, rte_errno);
			FUZZ_CHECK(swtim_adapter_lookup(c.timer_adapter_id) ==
				   a, "the second create replaced the first");
		}
		FUZZ_CHECK(swtim_adapter_free(a) == 0, "free");
		FUZZ_CHECK(swtim_adapter_free(a) == -EINVAL, "second free");
	}
	if (!null_conf && c.timer_adapter_id < SWTIM_ADAPTER_NUM_MAX) {
		rte_errno = 0;
		FUZZ_CHECK(swtim_adapter_lookup(c.timer_adapter_id) == NULL &&
			   rte_errno == ENOENT, "adapter %u left behind",
			   c.timer_adapter_id);
	}
	fuzz_resources_get(&after);
	fuzz_resources_check(&before, &after,
			     a == NULL ? "refused create" : "create and free");
	return 0;
}
