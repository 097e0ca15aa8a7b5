/*
 * FNV-1a hashes (Fowler, Noll, Vo): cheap, deterministic on every platform,
 * for agreeing on inputs across ranks and deriving seeds, never for security.
 * Chain calls by passing the previous result as h; start with the offset basis.
 */
#ifndef MG_UTIL_HASH_H
#define MG_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

#define MG_FNV1A_INIT 2166136261u                 /* 32-bit offset basis */
#define MG_FNV1A64_INIT 14695981039346656037ULL   /* 64-bit offset basis */

uint32_t mg_fnv1a(uint32_t h, const void *p, size_t n);
uint64_t mg_fnv1a64(uint64_t h, const void *p, size_t n);

#endif
