#ifndef BESTIARY_CCMARK_SHIM_H
#define BESTIARY_CCMARK_SHIM_H
#include <cmark.h>
#endif
