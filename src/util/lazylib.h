#ifndef IOTALLY_UTIL_LAZYLIB_H
#define IOTALLY_UTIL_LAZYLIB_H

/*
 * Shared libraries loaded on first use (the meson option lazy_libs, on by
 * default on Linux). libxml2 and libarchive, with what they load in turn
 * (ICU, libstdc++, lzma, zstd, ...), take longer to map and relocate than
 * the rest of iotally takes to start, and most runs (vmmap of a text dump)
 * never call them. So the binary is not linked with them: lazylib_xml.c
 * and lazylib_archive.c define, under the libraries' own names, exactly
 * the functions iotally calls (an import table). Each looks up the
 * library's function on its first call and then calls it. The rest of the
 * code includes the libraries' headers and calls their API as usual; an
 * import whose signature differs from the header's declaration does not
 * compile.
 *
 * A library is opened by the soname a probe linked against it at
 * configure time got (tools/lib-soname.py: libxml2.so.2, libarchive.so.13),
 * where the dynamic linker would look for it. If it cannot be loaded, or
 * lacks a function, the program stops as a binary linked with it would
 * not have started, but only now and with a message on standard error:
 *
 *     iotally: error: cannot load libxml2.so.2 (for ...): DLERROR
 *
 * and exit status DIAG_UNAVAILABLE (69). Like running out of memory it is
 * the machine's state, not the input's, and the caller cannot go on, so
 * this is the one place below cli/ that exits with a status. Loaded
 * libraries are never closed. Not thread-safe (iotally runs one thread).
 */

struct lazylib {
	const char *soname;     /* the file name to dlopen */
	const char *used_for;   /* for the message: what iotally needs it for */
	void *handle;           /* NULL until loaded */
};

extern struct lazylib lazylib_libxml2;
extern struct lazylib lazylib_libarchive;

/* Any function's address; cast back to the function's own type to call. */
typedef void (*lazylib_fn)(void);

/* `name` in `lib`, loaded first if it is not yet. Never NULL: exits 69 instead. */
lazylib_fn lazylib_function(struct lazylib *lib, const char *name);

/*
 * Define `name`, declared by the library's header as `ret name params`, to
 * call the library's own `name` with `args`. The pointer it keeps has the
 * header's type, __typeof__(name).
 */
#define LAZYLIB_IMPORT(lib, ret, name, params, args)                              \
	ret name params                                                           \
	{                                                                         \
		static __typeof__(name) *fn;                                      \
		__typeof__(name) *f = __atomic_load_n(&fn, __ATOMIC_ACQUIRE);     \
		if (!f) {                                                         \
			f = (__typeof__(name) *)lazylib_function(&(lib), #name);  \
			__atomic_store_n(&fn, f, __ATOMIC_RELEASE);               \
		}                                                                 \
		return f args;                                                    \
	}

/* The same for a function that returns nothing. */
#define LAZYLIB_IMPORT_VOID(lib, name, params, args)                              \
	void name params                                                          \
	{                                                                         \
		static __typeof__(name) *fn;                                      \
		__typeof__(name) *f = __atomic_load_n(&fn, __ATOMIC_ACQUIRE);     \
		if (!f) {                                                         \
			f = (__typeof__(name) *)lazylib_function(&(lib), #name);  \
			__atomic_store_n(&fn, f, __ATOMIC_RELEASE);               \
		}                                                                 \
		f args;                                                           \
	}

#endif
