#ifndef BESTIARY_CRYPTO_SHIM_H
#define BESTIARY_CRYPTO_SHIM_H
// OpenSSL's libcrypto (1.1.1 or later) for BestiaryCrypto where CryptoKit is not: SHA-256 and
// Ed25519, as small functions Swift calls without OpenSSL's macros or deprecation warnings.
// SHA256_Init and friends are deprecated in OpenSSL 3 in favour of EVP_Digest*, which would
// allocate a context per hash; a SHA256_CTX is a plain struct a Swift value can hold. (An
// OpenSSL built with `no-deprecated` lacks them; Debian's and Ubuntu's have them.)
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stddef.h>

// An empty message may come without an address; libcrypto is given one all the same.
static const unsigned char bestiary_crypto_empty = 0;

static inline int bestiary_sha256_init(SHA256_CTX *context) { return SHA256_Init(context); }

static inline int bestiary_sha256_update(SHA256_CTX *context, const void *bytes, size_t count) {
    return SHA256_Update(context, bytes, count);
}

/// Writes the 32-byte digest to `digest` (any 32 bytes of memory); `context` is used up.
static inline int bestiary_sha256_final(SHA256_CTX *context, void *digest) {
    return SHA256_Final((unsigned char *)digest, context);
}

/// The 32-byte public key of the 32-byte Ed25519 private key `seed`. 1 on success.
static inline int bestiary_ed25519_public_key(const unsigned char *seed, unsigned char *public_key) {
    EVP_PKEY *key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
    if (key == NULL) return 0;
    size_t length = 32;
    int ok = EVP_PKEY_get_raw_public_key(key, public_key, &length) == 1 && length == 32;
    EVP_PKEY_free(key);
    return ok;
}

/// The 64-byte Ed25519 signature (RFC 8032, deterministic) of `message` by `seed`. 1 on success.
static inline int bestiary_ed25519_sign(const unsigned char *seed, const unsigned char *message, size_t count,
                                        unsigned char *signature) {
    if (message == NULL) message = &bestiary_crypto_empty;
    EVP_PKEY *key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
    if (key == NULL) return 0;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    size_t length = 64;
    int ok = context != NULL && EVP_DigestSignInit(context, NULL, NULL, NULL, key) == 1
        && EVP_DigestSign(context, signature, &length, message, count) == 1 && length == 64;
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(key);
    return ok;
}

/// 1 when `signature` (64 bytes) is `public_key`'s (32 bytes) valid signature of `message`.
static inline int bestiary_ed25519_verify(const unsigned char *public_key, const unsigned char *signature,
                                          const unsigned char *message, size_t count) {
    if (message == NULL) message = &bestiary_crypto_empty;
    EVP_PKEY *key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, public_key, 32);
    if (key == NULL) return 0;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    int ok = context != NULL && EVP_DigestVerifyInit(context, NULL, NULL, NULL, key) == 1
        && EVP_DigestVerify(context, signature, 64, message, count) == 1;
    EVP_MD_CTX_free(context);
    EVP_PKEY_free(key);
    return ok;
}

#endif
