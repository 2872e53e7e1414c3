#ifndef IOTALLY_REPORT_CLASSES_TEXT_H
#define IOTALLY_REPORT_CLASSES_TEXT_H

/*
 * Text output of `iotally classes`: ioclasscount's and ioalloccount's own
 * formats (byte for byte what the 64-bit tools print), and the direct
 * counts and inheritance tree that need a hierarchy.
 *
 * Class names are written by util/escape.h's rule. The one exception to
 * "byte for byte": a name holding control bytes (C0, DEL, C1) or bytes that
 * are not UTF-8, which ioclasscount would print raw, shows them as \xNN.
 */

#include <stdbool.h>
#include <stdio.h>

#include "model/classes.h"
#include "model/hierarchy.h"

/*
 * A count as 64-bit ioclasscount prints it: the 32-bit counter cast to
 * unsigned long (-1 prints as 18446744073709551615), or
 * "?? (error reading/converting value)" when it is not a 32-bit number.
 */
void classes_text_count(FILE *out, const struct class_count *c);

/* The default listing: "Name = N" per entry, in the order given. */
void classes_text_listing(FILE *out, const struct class_count *const *v, size_t n);

/* The class-names line: "A = 1, B = <no such class>\n", in argument order. */
void classes_text_query(FILE *out, const struct classes_snapshot *s,
			char *const *names, size_t n);

/*
 * A saved class-names query written again as ioclasscount printed it: its
 * entries in input order, "A = 1, B = <no such class>\n".
 */
void classes_text_saved_query(FILE *out, const struct classes_snapshot *s);

/* ioalloccount: "%22s = 0x%08llx = %4llu K" for each total present. */
void classes_text_alloc(FILE *out, const struct classes_snapshot *s);

/*
 * "Name = D" direct counts for the entries that are in the hierarchy.
 * Returns how many entries were left out for not being in it.
 */
size_t classes_text_direct(FILE *out, const struct hierarchy *h,
			   const struct classes_snapshot *s,
			   const struct class_count *const *v, size_t n);

/*
 * The inheritance tree under `root` (HIER_NONE: every root), two spaces
 * of indent per level: "Name = COUNT (direct D)". Past
 * CLASSES_TREE_MAX_INDENT levels the indent stops growing and the line
 * says its level ("[level 40] Name = ..."): a hostile chain of 200,000
 * classes would otherwise print 40 GB of spaces (output quadratic in the
 * depth); IOKit's real hierarchies are about 15 levels deep. With `nonzero`, subtrees
 * with no nonzero count are left out.
 */
#define CLASSES_TREE_MAX_INDENT 32

void classes_text_tree(FILE *out, const struct hierarchy *h,
		       const struct classes_snapshot *s, size_t root, bool nonzero);

#endif
