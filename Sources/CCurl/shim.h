#ifndef BESTIARY_CCURL_SHIM_H
#define BESTIARY_CCURL_SHIM_H
// libcurl's easy interface for BestiaryFetch's HTTP transports. curl_easy_setopt and
// curl_easy_getinfo are variadic, which Swift cannot call: these typed wrappers stand in.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

typedef size_t (*bestiary_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*bestiary_curl_progress_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode bestiary_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode bestiary_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode bestiary_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode bestiary_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode bestiary_curl_set_data_callback(CURL *handle, CURLoption option, bestiary_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode bestiary_curl_set_progress_callback(CURL *handle, bestiary_curl_progress_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}
static inline CURLcode bestiary_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode bestiary_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
#endif
