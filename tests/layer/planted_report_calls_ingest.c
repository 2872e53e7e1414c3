/*
 * A planted layer violation, never linked into iotally: a report/ writer
 * calling ingest/ (report/ and ingest/ are siblings). tests/link-check-planted.py
 * links it whole with the report/ layer check's own command and requires the
 * link to fail with an undefined reference to input_detect, in every build
 * type (with LTO too, where nothing calls this function).
 */
#include "ingest/detect.h"

int planted_report_calls_ingest(void);

int
planted_report_calls_ingest(void)
{
	return (int)input_detect("{", 1);
}
