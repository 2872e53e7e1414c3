#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/hierarchy.h"

static size_t
link_class(struct hierarchy *h, const char *child, const char *parent)
{
	size_t c = hierarchy_intern(h, child, strlen(child));
	if (parent)
		hierarchy_set_super(h, c, hierarchy_intern(h, parent, strlen(parent)));
	return c;
}

static void
count(struct classes_snapshot *s, const char *name, int64_t v)
{
	classes_snapshot_add(s, name, strlen(name), v, CLASS_COUNT_OK, 1);
}

/* OSObject <- IOService <- {IONetworkController <- IOEthernetController, IOPCIDevice, IOIdle} */
static void
build(struct hierarchy *h, struct classes_capture *cap, struct classes_snapshot **s)
{
	hierarchy_init(h);
	link_class(h, "IOService", "OSObject");
	link_class(h, "IONetworkController", "IOService");
	link_class(h, "IOEthernetController", "IONetworkController");
	link_class(h, "IOPCIDevice", "IOService");
	link_class(h, "IOIdle", "IOService");
	hierarchy_finish(h);
	classes_capture_init(cap);
	*s = classes_capture_add(cap, CLASSES_SRC_KEXT_INFO, 1);
	count(*s, "OSObject", 1);
	count(*s, "IOService", 2);
	count(*s, "IONetworkController", 1);
	count(*s, "IOEthernetController", 1);
	count(*s, "IOPCIDevice", 20);
	count(*s, "IOIdle", 0);
}

static void
test_direct_counts(void **state)
{
	(void)state;
	struct hierarchy h;
	struct classes_capture cap;
	struct classes_snapshot *s;
	int64_t direct;
	uint64_t live;
	build(&h, &cap, &s);
	assert_true(hierarchy_direct_count(&h, hierarchy_find(&h, "IONetworkController", 19),
					   s, &direct, &live));
	assert_int_equal(direct, 0);   /* "why is IONetworkController still 1?" */
	assert_int_equal(live, 1);
	assert_true(hierarchy_direct_count(&h, hierarchy_find(&h, "IOService", 9), s, &direct,
					   &live));
	assert_int_equal(live, 2);     /* IOIdle has no instances */
	assert_int_equal(direct, 0);
	struct hier_identity_failure *f;
	assert_int_equal(hierarchy_check_identity(&h, s, &f), 0);
	free(f);
	hierarchy_release(&h);
	classes_capture_release(&cap);
}

static void
test_identity_failure(void **state)
{
	(void)state;
	struct hierarchy h;
	struct classes_capture cap;
	struct classes_snapshot *s;
	build(&h, &cap, &s);
	/* IOService = 2 with IONetworkController, IOPCIDevice and now IOIdle in use. */
	classes_snapshot_free(s);
	cap.nsnapshots = 0;
	s = classes_capture_add(&cap, CLASSES_SRC_KEXT_INFO, 1);
	count(s, "IOService", 2);
	count(s, "IONetworkController", 1);
	count(s, "IOPCIDevice", 1);
	count(s, "IOIdle", 1);
	struct hier_identity_failure *f;
	assert_int_equal(hierarchy_check_identity(&h, s, &f), 1);
	assert_string_equal(h.classes[f[0].cls].name, "IOService");
	assert_int_equal(f[0].live_subclasses, 3);
	free(f);
	hierarchy_release(&h);
	classes_capture_release(&cap);
}

static void
test_conflict_and_cycle(void **state)
{
	(void)state;
	struct hierarchy h;
	hierarchy_init(&h);
	link_class(&h, "A", "B");
	link_class(&h, "B", "A");        /* a cycle: neither is reachable from a root */
	size_t c = link_class(&h, "C", "OSObject");
	assert_int_equal(hierarchy_set_super(&h, c, hierarchy_find(&h, "A", 1)), -1);
	assert_int_equal(h.conflicts, 1);
	assert_int_equal(hierarchy_set_super(&h, c, c), -1);
	hierarchy_finish(&h);
	assert_int_equal(h.unreachable, 2);
	size_t *roots;
	assert_int_equal(hierarchy_roots(&h, &roots), 1);
	assert_string_equal(h.classes[roots[0]].name, "OSObject");
	free(roots);
	hierarchy_release(&h);
}

struct visit_log {
	char text[256];
};

static void
visit(const struct hierarchy *h, size_t cls, size_t depth, void *ctx)
{
	struct visit_log *log = ctx;
	size_t n = strlen(log->text);
	snprintf(log->text + n, sizeof(log->text) - n, "%zu:%s ", depth, h->classes[cls].name);
}

static void
test_walk_order(void **state)
{
	(void)state;
	struct hierarchy h;
	struct classes_capture cap;
	struct classes_snapshot *s;
	struct visit_log log = { "" };
	build(&h, &cap, &s);
	hierarchy_walk(&h, hierarchy_find(&h, "OSObject", 8), visit, &log);
	assert_string_equal(log.text, "0:OSObject 1:IOService 2:IOIdle 2:IONetworkController "
			    "3:IOEthernetController 2:IOPCIDevice ");
	/* A walk started inside a cycle ends. */
	hierarchy_release(&h);
	hierarchy_init(&h);
	link_class(&h, "A", "B");
	link_class(&h, "B", "A");
	hierarchy_finish(&h);
	log.text[0] = '\0';
	hierarchy_walk(&h, 0, visit, &log);
	assert_string_equal(log.text, "0:A 1:B ");
	hierarchy_release(&h);
	classes_capture_release(&cap);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_direct_counts),
		cmocka_unit_test(test_identity_failure),
		cmocka_unit_test(test_conflict_and_cycle),
		cmocka_unit_test(test_walk_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
