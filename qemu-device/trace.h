#include "trace/trace-hw_ipu.h"
