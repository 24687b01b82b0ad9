/*
 * lcan_version.h - the version of the lcan tool and generator (`lcan --version`, written into
 * every file `lcan gen` produces). Bump it with CHANGELOG.md and the cores (lcan.core).
 */
#ifndef LCAN_VERSION_H
#define LCAN_VERSION_H

#define LCAN_VERSION "0.1.0"

#endif
