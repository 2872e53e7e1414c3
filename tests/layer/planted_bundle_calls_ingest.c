/*
 * A planted layer violation, never linked into iotally: the bundle format
 * (bundle/, below ingest/ and capture/) calling the ingest/ bundle reader
 * above it. tests/link-check-planted.py links it whole with the bundle/
 * layer check's own command and requires the link to fail with an
 * undefined reference to bundle_path_is_bundle, in every build type.
 */
#include "ingest/bundle.h"

int planted_bundle_calls_ingest(void);

int
planted_bundle_calls_ingest(void)
{
	return (int)bundle_path_is_bundle(BUNDLE_MANIFEST);
}
