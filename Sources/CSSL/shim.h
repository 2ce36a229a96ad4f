#ifndef MESSAGEAI_CSSL_SHIM_H
#define MESSAGEAI_CSSL_SHIM_H
// OpenSSL 3 (Debian's libssl-dev). Function-like macros do not import into Swift: the small
// wrappers below stand in for the ones we use, and the ALPN selection callback is C because
// OpenSSL calls it with a C function pointer.
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ec.h>
#include <openssl/rand.h>
#include <string.h>

/// OpenSSL 3 registers an atexit handler that frees its global state. A client or server that
/// calls exit() on one thread while another is inside SSL_read or SSL_write then crashes in the
/// freed state (seen: a piped `/logout` ended in SIGSEGV one run in five). The process is ending
/// anyway, so the clean-up is skipped. This must be the first OpenSSL call.
static inline void messageai_openssl_init(void) {
    OPENSSL_init_ssl(OPENSSL_INIT_NO_ATEXIT | OPENSSL_INIT_LOAD_SSL_STRINGS | OPENSSL_INIT_LOAD_CRYPTO_STRINGS, NULL);
}

/// The ALPN name of the MessageAI protocol, as the wire list (length-prefixed).
static const unsigned char messageai_alpn_wire[] = { 11, 'm','e','s','s','a','g','e','a','i','/','1' };

static inline int messageai_set_tls_versions(SSL_CTX *ctx) {
    // TLS 1.2 is the floor; OpenSSL negotiates 1.3 first when both sides have it.
    return SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
}

static inline long messageai_set_modes(SSL_CTX *ctx) {
    // Partial writes and a buffer that may move between retries: the output buffer hands the
    // same bytes again after WANT_WRITE, but not necessarily from the same address.
    // A peer that closes TCP without close_notify has simply gone (frames carry their own
    // lengths, so truncation cannot pass unnoticed): report it as a close, not an error.
    SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
    return SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER
                                 | SSL_MODE_RELEASE_BUFFERS);
}

static int messageai_alpn_select(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                                 const unsigned char *in, unsigned int inlen, void *arg) {
    (void)ssl; (void)arg;
    unsigned char *selected = NULL;
    if (SSL_select_next_proto(&selected, outlen, messageai_alpn_wire, sizeof messageai_alpn_wire, in, inlen)
        != OPENSSL_NPN_NEGOTIATED) {
        // A client that offers ALPN but not ours speaks another protocol: refuse the handshake.
        return SSL_TLSEXT_ERR_ALERT_FATAL;
    }
    *out = selected;
    return SSL_TLSEXT_ERR_OK;
}

static inline void messageai_server_alpn(SSL_CTX *ctx) {
    SSL_CTX_set_alpn_select_cb(ctx, messageai_alpn_select, NULL);
}

static inline int messageai_client_alpn(SSL *ssl) {
    return SSL_set_alpn_protos(ssl, messageai_alpn_wire, sizeof messageai_alpn_wire);
}

static inline long messageai_set_sni(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}

static inline int messageai_bio_flush(BIO *b) { return (int)BIO_flush(b); }

static inline EVP_PKEY *messageai_generate_p256(void) {
    return EVP_EC_gen("P-256");
}

static inline long messageai_no_tickets(SSL_CTX *ctx) {
    // Clients reconnect with a full handshake: no session tickets to issue, store or rotate.
    SSL_CTX_set_num_tickets(ctx, 0);
    return SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
}

#endif
