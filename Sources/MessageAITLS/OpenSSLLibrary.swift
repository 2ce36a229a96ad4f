import CSSL

/// OpenSSL's one-time set-up, done before any other call (see `messageai_openssl_init` for why
/// it skips the atexit clean-up). A global `let` is initialised once, thread-safely, on first use.
let openSSLLibrary: Void = messageai_openssl_init()
