/*
 * status.h - a failing status with its message, shared by the library's sources (not public).
 */
#ifndef LCAN_STATUS_H
#define LCAN_STATUS_H

#include <stddef.h>
#include "lcan.h"

/* Format the message into err (errlen bytes, nothing when err is NULL or errlen is 0); returns st. */
lcan_status lcan_fail(char *err, size_t errlen, lcan_status st, const char *fmt, ...);

#endif
