// The store's interface (records, protocols, `StoreError`) moved to MessageAIStore so that a
// backend can conform without depending on the server. Re-exported here, once, instead of an
// import in each of the ~100 files of the server, its executable and its tests that use it.
@_exported import MessageAIStore
