#ifndef IOTALLY_UTIL_CAPTURE_KINDS_H
#define IOTALLY_UTIL_CAPTURE_KINDS_H

/*
 * The kinds of capture iotally reads, once, in the order a bundle offers its
 * captures (`iotally BUNDLE`, `report BUNDLE`, trend's default kind). Each
 * layer that needs a value or a name a kind expands this list, so that a new
 * kind is one line here and not an enum and a name table in each of them:
 * bundle/ (a manifest's capture_kind, enum bundle_kind), model/ (a kind's own
 * report section, enum report_section_id) and app/ (the registry's rows,
 * app/kind.c). It sits in util/ because those layers share nothing higher.
 *
 * X(ID, name): ID names the enum values (BUNDLE_KIND_ID, REPORT_SEC_ID);
 * name is the kind's name (#name: a manifest's capture_kind, the command,
 * trend's --kind) and its registry row's (const struct kind kind_<name>).
 */
#define CAPTURE_KINDS(X)       \
	X(VMMAP, vmmap)         \
	X(CLASSES, classes)     \
	X(TRACK, track)         \
	X(FOOTPRINT, footprint) \
	X(HEAP, heap)

#endif
