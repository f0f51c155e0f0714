// zlib, for the CRC of a zip entry's bytes: the system's on Linux (zlib1g-dev) and in Apple's SDKs.
// ZIPFoundation's own CZlib module exists on Linux only, so the reader does not import it.
#include <zlib.h>
