#include "dyn-test-util.h"
