#if HTTP
// The caching rules, keys and responses come with the fetcher: `import CarlosHTTP` is
// all an application needs.
@_exported import CarlosHTTPCaching
#endif
