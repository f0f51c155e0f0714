// The toolchain's index store API (usr/local/include/indexstore in a Swift toolchain).
#include <indexstore/indexstore.h>
