#pragma once
/* Only the reentrant (_r) API: every call names the context that owns its objects. */
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
