#include "util/linereader.h"

#include "util/arcread.h"
#include "util/beneath.h"
#include "util/hashmap.h"
#include "util/scan.h"
#include "util/xalloc.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BLOCK_SIZE (1u << 17)
/* The buffer a reader starts with: two blocks, room for a line that spans one. */
#define START_CAP (2 * (size_t)BLOCK_SIZE)

/*
 * The buffer grows to max_line + BLOCK_SIZE only when a line needs it:
 * allocating (and, for a 16 MiB classes limit, copying) that much for every
 * input cost page faults and brk calls per file, most of the system time of
 * a command over thousands of small captures.
 */
static void
reader_setup(struct line_reader *r, int fd, const char *path, size_t max_line)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->path = path;
	r->max_line = max_line ? max_line : LINE_READER_DEFAULT_MAX;
	r->cap_max = r->max_line + BLOCK_SIZE;
	r->cap = r->cap_max < START_CAP ? r->cap_max : START_CAP;
	r->buf = xmalloc(r->cap);
	/* Reads fill the buffer's first block (and the part of a line moved
	 * before it): its pages mapped in one call, not a fault each. */
	xalloc_prefault(r->buf, r->cap < BLOCK_SIZE + 4096 ? r->cap : BLOCK_SIZE + 4096);
	r->mark = '\n';
}

/* Make room for a block after r->end, up to cap_max (fill() reads the same
 * blocks as with a buffer of cap_max from the start). */
static void
grow_for_block(struct line_reader *r)
{
	if (r->cap - r->end >= BLOCK_SIZE || r->cap == r->cap_max)
		return;
	size_t want = r->cap * 2;
	if (want < r->end + BLOCK_SIZE)
		want = r->end + BLOCK_SIZE;
	if (want > r->cap_max)
		want = r->cap_max;
	r->buf = xrealloc(r->buf, want);
	r->cap = want;
}

void
line_reader_from_fd(struct line_reader *r, int fd, const char *path,
		    size_t max_line)
{
	reader_setup(r, fd, path, max_line);
}

void
line_reader_from_archive(struct line_reader *r, struct arc_reader *arc, const char *path,
			 size_t max_line)
{
	reader_setup(r, -1, path, max_line);
	r->arc = arc;
	r->sniffed = true;
}

void
line_reader_raise_max(struct line_reader *r, size_t max_line)
{
	if (max_line <= r->max_line)
		return;
	r->max_line = max_line;
	/* A reader of memory already holds its whole input. */
	if (r->fd < 0 && !r->arc)
		return;
	r->cap_max = max_line + BLOCK_SIZE;   /* grown when a line needs it */
}

void
line_reader_from_memory(struct line_reader *r, const void *data, size_t n,
			const char *path, size_t max_line)
{
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->path = path;
	r->max_line = max_line ? max_line : LINE_READER_DEFAULT_MAX;
	r->cap = r->cap_max = n;
	r->buf = xmalloc(n ? n : 1);
	if (n)
		memcpy(r->buf, data, n);
	r->end = n;
	r->bytes_read = n;
	r->eof = true;
	r->mark = '\n';
}

/* A name standing for an archive's member, or for a file beneath a bundle folder. */
struct member_map {
	char *name, *archive, *member;
	char *root;   /* a folder's file: open_beneath(root, member); archive is NULL */
};
static struct member_map *member_maps;
static size_t nmember_maps, member_maps_alloc;
/* name -> its latest map: a series maps a name per sample, and each is looked up */
static struct strmap member_map_names;

static const struct member_map *find_member_map(const char *path);

static void
add_member_map(const char *name, const char *archive, const char *member, const char *root)
{
	bool created;
	member_maps = xgrow(member_maps, &member_maps_alloc, nmember_maps + 1,
			    sizeof(*member_maps));
	member_maps[nmember_maps].name = xstrdup(name);
	member_maps[nmember_maps].archive = archive ? xstrdup(archive) : NULL;
	member_maps[nmember_maps].member = xstrdup(member);
	member_maps[nmember_maps].root = root ? xstrdup(root) : NULL;
	*strmap_put(&member_map_names, name, strlen(name), &created) = nmember_maps++;
}

void
line_reader_map_member(const char *name, const char *archive, const char *member)
{
	add_member_map(name, archive, member, NULL);
}

void
line_reader_map_folder_file(const char *name, const char *root, const char *rel)
{
	add_member_map(name, NULL, rel, root);
}

int
line_reader_open_mapped_fd(const char *path, struct diag *err)
{
	const struct member_map *m = find_member_map(path);
	if (m && m->root)
		return open_beneath(m->root, m->member, path, err);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return diag_set(err, DIAG_NOINPUT, path, 0, 0, "cannot open: %s", strerror(errno));
	return fd;
}

void
line_reader_unmap_all(void)
{
	for (size_t i = 0; i < nmember_maps; i++) {
		free(member_maps[i].name);
		free(member_maps[i].archive);
		free(member_maps[i].member);
		free(member_maps[i].root);
	}
	free(member_maps);
	member_maps = NULL;
	nmember_maps = member_maps_alloc = 0;
	strmap_release(&member_map_names);
}

static const struct member_map *
find_member_map(const char *path)
{
	const size_t *i = strmap_get(&member_map_names, path, strlen(path));
	return i ? &member_maps[*i] : NULL;
}

int
line_reader_open(struct line_reader *r, const char *path, size_t max_line,
		 struct diag *err)
{
	int fd;
	struct stat st;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	const struct member_map *m = find_member_map(path);
	if (m && m->root) {
		fd = open_beneath(m->root, m->member, path, err);
		if (fd < 0)
			return -1;
		reader_setup(r, fd, path, max_line);
		r->owns_fd = true;
		return 0;
	}
	if (m) {
		struct arc_reader *arc = arc_reader_member(m->archive, m->member, err);
		if (!arc)
			return -1;
		line_reader_from_archive(r, arc, path, max_line);
		return 0;
	}
	if (strcmp(path, "-") == 0) {
		fd = STDIN_FILENO;
	} else {
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return diag_set(err, DIAG_NOINPUT, path, 0, 0,
					"cannot open input: %s", strerror(errno));
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (fd != STDIN_FILENO)
			close(fd);
		return diag_set(err, DIAG_NOINPUT, path, 0, 0,
				"cannot read input: it is a directory");
	}
	reader_setup(r, fd, path, max_line);
	r->owns_fd = fd != STDIN_FILENO;
	return 0;
}

void
line_reader_close(struct line_reader *r)
{
	arc_reader_free(r->arc);
	r->arc = NULL;
	if (r->owns_fd && r->fd >= 0)
		close(r->fd);
	free(r->buf);
	r->buf = NULL;
	r->fd = -1;
}

/* Raw bytes from the descriptor into dst. > 0, 0 at EOF, -1 on error. */
static ssize_t
read_fd(struct line_reader *r, char *dst, size_t room, struct diag *err)
{
	for (;;) {
		ssize_t n = read(r->fd, dst, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return diag_set(err, DIAG_NOINPUT, r->path, 0, 0,
					"cannot read input: %s", strerror(errno));
		return n;
	}
}

/*
 * The first read looks at the input's first bytes: a gzip stream is
 * decoded from then on, so every reader takes `.gz` captures as they are.
 * Returns what the source gives (decoded bytes for gzip input).
 */
static ssize_t
read_source(struct line_reader *r, char *dst, size_t room, struct diag *err)
{
	if (r->arc)
		return arc_reader_read(r->arc, dst, room, err);
	if (r->sniffed)
		return read_fd(r, dst, room, err);
	r->sniffed = true;
	size_t got = 0;
	while (got < 2) {
		ssize_t n = read_fd(r, dst + got, room - got, err);
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (!arc_is_gzip(dst, got))
		return (ssize_t)got;
	r->arc = arc_reader_gunzip_fd(r->fd, dst, got, r->path, err);
	if (!r->arc)
		return -1;
	r->compressed = true;
	return arc_reader_read(r->arc, dst, room, err);
}

/* Read one more block after r->end. Returns bytes read, 0 at EOF, -1 on error. */
static ssize_t
fill(struct line_reader *r, struct diag *err)
{
	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, r->end - r->pos);
		r->end -= r->pos;
		r->pos = 0;
	}
	grow_for_block(r);
	size_t room = r->cap - r->end;
	if (room > BLOCK_SIZE)
		room = BLOCK_SIZE;
	ssize_t n = read_source(r, r->buf + r->end, room, err);
	if (n < 0)
		return -1;
	if (n == 0)
		r->eof = true;
	r->end += (size_t)n;
	r->bytes_read += (uint64_t)n;
	return n;
}

static void
strip_bom(struct line_reader *r)
{
	if (r->started)
		return;
	r->started = true;
	if (r->end - r->pos >= 3 && memcmp(r->buf + r->pos, "\xef\xbb\xbf", 3) == 0)
		r->pos += 3;
}

int
line_reader_peek(struct line_reader *r, size_t want, const char **p,
		 size_t *n, struct diag *err)
{
	if (want > r->cap_max)
		want = r->cap_max;
	while (!r->eof && r->end - r->pos < want) {
		if (r->end == r->cap_max)
			break;
		if (fill(r, err) < 0)
			return -1;
	}
	*p = r->buf + r->pos;
	*n = r->end - r->pos;
	return 0;
}

/* Drop bytes up to and including the next newline. 1 found, 0 EOF, -1 error. */
static int
skip_rest_of_line(struct line_reader *r, struct diag *err)
{
	for (;;) {
		char *nl = memchr(r->buf + r->pos, '\n', r->end - r->pos);
		if (nl) {
			r->pos = (size_t)(nl - r->buf) + 1;
			return 1;
		}
		r->pos = r->end = 0;
		if (r->eof)
			return 0;
		if (fill(r, err) < 0)
			return -1;
	}
}

void
line_reader_set_mark(struct line_reader *r, char c)
{
	r->mark = c;
}

/*
 * The first '\n' in [p, end), or NULL; *nul is set when a NUL byte comes
 * before it (or before end), *first_mark to the first mark byte before it
 * (unless NULL). NUL bytes and the mark are looked for in the same pass as
 * the line end: a separate pass over every block cost 0.3 ms of CPU on a
 * 31 MB dump, and the vmmap parser's own search for a region line's ']'
 * scanned the line's first 80 bytes again.
 */
#if defined(__SSE2__)
/*
 * With a mark, one loop over 16-byte blocks: the mark's bits are taken
 * in every block without a branch (the least offset seen), so the loop
 * ends once per line, where the line ends. Searching for the mark first
 * and the end after it ended two loops at places that vary with each
 * line, and those two exits were mispredicted about once a line each
 * (a third of the branch misses of a dump of mixed line shapes).
 */
static char *
find_line_end_marked(char *p, char *end, bool *nul, char mark, const char **first_mark)
{
	char *base = p;
	size_t best = SIZE_MAX;   /* the first mark's offset from base */
	const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
	const __m128i mk = _mm_set1_epi8(mark);
	/* 32 bytes a step while they last (a line of 140 bytes takes five),
	 * then 16, then one. */
	while (end - p >= 32) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
		uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, mk)) |
			     (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, mk)) << 16;
		size_t at = m ? (size_t)(p - base) + (size_t)__builtin_ctz(m) : SIZE_MAX;
		best = at < best ? at : best;
		uint32_t stop = (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(a, nl),
									  _mm_cmpeq_epi8(a, zero))) |
				(uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(b, nl),
									  _mm_cmpeq_epi8(b, zero))) << 16;
		while (stop) {
			char *q = p + __builtin_ctz(stop);
			if (*q == '\n') {
				*first_mark = best < (size_t)(q - base) ? base + best : NULL;
				return q;
			}
			*nul = true;
			stop &= stop - 1;
		}
		p += 32;
	}
	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, mk));
		size_t at = m ? (size_t)(p - base) + (size_t)__builtin_ctz(m) : SIZE_MAX;
		best = at < best ? at : best;
		unsigned stop = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, nl),
									   _mm_cmpeq_epi8(v, zero)));
		while (stop) {
			char *q = p + __builtin_ctz(stop);
			if (*q == '\n') {
				*first_mark = best < (size_t)(q - base) ? base + best : NULL;
				return q;
			}
			*nul = true;
			stop &= stop - 1;
		}
		p += 16;
	}
	for (; p < end; p++) {
		if (*p == mark && best == SIZE_MAX)
			best = (size_t)(p - base);
		if (*p == '\0')
			*nul = true;
		else if (*p == '\n')
			break;
	}
	*first_mark = best != SIZE_MAX && base + best < p ? base + best : NULL;
	return p < end ? p : NULL;
}
#endif

static char *
find_line_end(char *p, char *end, bool *nul, char mark, const char **first_mark)
{
	*first_mark = NULL;
#if defined(__SSE2__)
	if (mark != '\n' && mark != '\0')
		return find_line_end_marked(p, end, nul, mark, first_mark);
#else
	while (mark != '\n') {
		p = (char *)scan_byte3(p, end, '\n', '\0', mark);
		if (!p || *p == '\n')
			return p;
		if (*p == '\0') {
			*nul = true;
			p++;
			continue;
		}
		*first_mark = p++;
		break;
	}
#endif
	for (;;) {
		p = (char *)scan_byte2(p, end, '\n', '\0');
		if (!p || *p == '\n')
			return p;
		*nul = true;
		p++;
	}
}

static void
deliver(struct line_reader *r, struct line *ln, size_t start, size_t len, bool nul,
	const char *mark)
{
	ln->p = r->buf + start;
	ln->len = len;
	if (len && ln->p[len - 1] == '\r')
		ln->len--;
	ln->has_nul = nul;
	ln->mark = mark && mark < ln->p + ln->len ? mark : NULL;
	ln->no = ++r->lineno;
}

int
line_reader_next(struct line_reader *r, struct line *ln, struct diag *err)
{
	memset(ln, 0, sizeof(*ln));
	if (r->skipping) {
		r->skipping = false;
		if (skip_rest_of_line(r, err) < 0)
			return -1;
	}
	for (;;) {
		if (!r->started && (r->end - r->pos >= 3 || r->eof))
			strip_bom(r);
		size_t avail = r->end - r->pos;
		size_t scan = avail < r->max_line + 1 ? avail : r->max_line + 1;
		bool nul = false;
		const char *mark;
		char *nl = find_line_end(r->buf + r->pos, r->buf + r->pos + scan, &nul,
					 r->mark, &mark);
		if (nl) {
			size_t start = r->pos;
			r->pos = (size_t)(nl - r->buf) + 1;
			deliver(r, ln, start, (size_t)(nl - r->buf) - start, nul, mark);
			return 1;
		}
		if (avail > r->max_line) {
			/* No newline within max_line bytes: cut here, skip the rest later.
			 * The scan went one byte further than the cut line. */
			size_t start = r->pos;
			r->pos += r->max_line;
			r->skipping = true;
			nul = memchr(r->buf + start, '\0', r->max_line) != NULL;
			deliver(r, ln, start, r->max_line, nul, mark);
			ln->overlong = true;
			return 1;
		}
		if (r->eof) {
			if (avail == 0)
				return 0;
			size_t start = r->pos;
			r->pos = r->end;
			deliver(r, ln, start, avail, nul, mark);
			ln->unterminated = true;
			return 1;
		}
		if (fill(r, err) < 0)
			return -1;
	}
}
