#ifndef IOTALLY_CLI_CMD_HEAP_H
#define IOTALLY_CLI_CMD_HEAP_H

/* iotally heap: the malloc heap of a saved `heap PID` report, by class. */

int cmd_heap(int argc, char **argv);
extern const char cmd_heap_help[];

#endif
