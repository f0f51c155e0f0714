#ifndef HEALTHPROBE_CLIBXML2_SHIM_H
#define HEALTHPROBE_CLIBXML2_SHIM_H

// libxml2's headers pull in the system ICU on Linux, which clashes with Foundation's own ICU
// module. HealthProbe never asks libxml2 to convert encodings, so ICU support is switched off
// before any other libxml2 header is read.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

#endif
