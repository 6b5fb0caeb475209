/* libid3tag 0.15 (id3tag.h): ID3 tags of audio files.

   id3_file_open(path, mode) reads the path and returns NULL (the file
   cannot be opened or read) or a fresh file whose tag (id3_file_tag: the
   same tag each time, never NULL, as libid3tag makes an empty one when the
   file has none) the library has parsed from the file. The tag's public
   structs (struct id3_tag, struct id3_frame, union id3_field, with the
   header's layout) are fresh memory filled with input: the number of
   frames, each frame's 4-character id, and each field's type and value
   (numbers, fixed-size values, latin1 and UCS-4 strings, string lists,
   binary data, each NULL or fresh). Real frames have the fields their id
   prescribes; the model gives every frame 16 fields (more than any frame
   type has) of any type, so a program that indexes fields by the frame's
   id reads inside the array, and every combination the library can give
   is possible. The frame's description points to a constant string.

   The getters read the field and are exact (libid3tag's field.c): a
   string getter returns NULL when the field has another type, the
   string's pointer, or a constant empty string when it is NULL;
   getnstrings counts a stringlist's strings. id3_tag_findframe is exact for
   an empty id (the index-th frame) and otherwise matches ids with strncmp
   as libid3tag does, without its table of obsolete ids (which only changes
   which input frame is found). id3_ucs4_utf8duplicate is exact (utf8.c's
   encoding, U+00B7 for values above 0x7fffffff) into fresh memory.
   id3_file_close frees the file and its tag (the frames and strings are
   not freed: a use of them after close is not detected) and returns 0 or
   -1 (the close failed). */
#include "crace_intrinsics.h"

union __crace_id3_field {
  int type;
  struct {
    int type;
    long value;
  } number;
  struct {
    int type;
    unsigned char *ptr;
  } latin1;
  struct {
    int type;
    unsigned nstrings;
    unsigned char **strings;
  } latin1list;
  struct {
    int type;
    unsigned long *ptr;
  } string;
  struct {
    int type;
    unsigned nstrings;
    unsigned long **strings;
  } stringlist;
  struct {
    int type;
    char value[9];
  } immediate;
  struct {
    int type;
    unsigned char *data;
    unsigned long length;
  } binary;
};
struct __crace_id3_frame {
  char id[5];
  const char *description;
  unsigned refcount;
  int flags;
  int group_id;
  int encryption_method;
  unsigned char *encoded;
  unsigned long encoded_length;
  unsigned long decoded_length;
  unsigned nfields;
  union __crace_id3_field *fields;
};
struct __crace_id3_tag {
  unsigned refcount;
  unsigned version;
  int flags;
  int extendedflags;
  int restrictions;
  int options;
  unsigned nframes;
  struct __crace_id3_frame **frames;
  unsigned long paddedsize;
};
struct __crace_id3_file {
  struct __crace_id3_tag *tag;
};

#define CRACE_ID3_FIELDS 16
static const unsigned long __crace_id3_ucs4_empty[1];
static const char __crace_id3_description[] = "";

/* A number of input items: a chain of 1-bit inputs (explore enumerates
   them, smallest first; there is no bound). */
CRACE_MODEL crace_size_t __crace_id3_count(void) {
  crace_size_t n = 0;
  while (__crace_nondet_bits(1))
    n++;
  return n;
}
/* A fresh UCS-4 string of input characters, or NULL. */
CRACE_MODEL unsigned long *__crace_id3_ucs4_input(void) {
  if (__crace_nondet_bits(1))
    return 0;
  crace_size_t n = __crace_id3_count();
  unsigned long *s = __crace_alloc((n + 1) * sizeof(unsigned long));
  for (crace_size_t i = 0; i < n; i++)
    s[i] = (unsigned long)(unsigned)__crace_nondet_int();
  s[n] = 0;
  return s;
}
CRACE_MODEL unsigned char *__crace_id3_latin1_input(void) {
  if (__crace_nondet_bits(1))
    return 0;
  crace_size_t n = __crace_id3_count();
  unsigned char *s = __crace_alloc(n + 1);
  __crace_libc_input_string((char *)s, n + 1);
  return s;
}
/* A field as libid3tag's parser leaves it: any type, a value of input. */
CRACE_MODEL void __crace_id3_field_input(union __crace_id3_field *f) {
  int type = (int)__crace_nondet_bits(4);
  f->type = type;
  if (type == 1 || type == 2) {
    f->latin1.ptr = __crace_id3_latin1_input();
  } else if (type == 3 || type == 6) {
    unsigned n = (unsigned)__crace_id3_count();
    f->stringlist.nstrings = n;
    void **v = n ? __crace_alloc(n * sizeof(void *)) : 0;
    for (unsigned i = 0; i < n; i++)
      v[i] = type == 3 ? (void *)__crace_id3_latin1_input()
                       : (void *)__crace_id3_ucs4_input();
    f->stringlist.strings = (unsigned long **)v;
  } else if (type == 4 || type == 5) {
    f->string.ptr = __crace_id3_ucs4_input();
  } else if (type >= 7 && type <= 9) {
    __crace_libc_input(f->immediate.value, 8);
    f->immediate.value[8] = 0;
  } else if (type == 15) {
    crace_size_t n = __crace_id3_count();
    f->binary.data = n ? __crace_alloc(n) : 0;
    __crace_libc_input(f->binary.data, n);
    f->binary.length = n;
  } else {
    f->number.value = (long)__crace_nondet_int();
  }
}
CRACE_MODEL struct __crace_id3_frame *__crace_id3_frame_input(void) {
  struct __crace_id3_frame *fr = __crace_alloc(sizeof *fr);
  __crace_libc_input(fr->id, 4);
  fr->id[4] = 0;
  fr->description = __crace_id3_description;
  fr->refcount = 1;
  fr->flags = __crace_nondet_int();
  fr->group_id = __crace_nondet_int();
  fr->encryption_method = __crace_nondet_int();
  fr->encoded = 0;
  fr->encoded_length = 0;
  fr->decoded_length = (unsigned long)(unsigned)__crace_nondet_int();
  unsigned nf = 0;
  while (nf < CRACE_ID3_FIELDS && __crace_nondet_bits(1))
    nf++;
  fr->nfields = nf;
  fr->fields =
      __crace_alloc(CRACE_ID3_FIELDS * sizeof(union __crace_id3_field));
  for (int i = 0; i < CRACE_ID3_FIELDS; i++)
    __crace_id3_field_input(&fr->fields[i]);
  return fr;
}

CRACE_MODEL void *id3_file_open(const char *path, int mode) {
  __crace_libc_read_string(path);
  if (__crace_nondet_bits(1))
    return 0;
  struct __crace_id3_file *file = __crace_alloc(sizeof *file);
  struct __crace_id3_tag *tag = __crace_alloc(sizeof *tag);
  tag->refcount = 1;
  tag->version = (unsigned)__crace_nondet_int();
  tag->flags = __crace_nondet_int();
  tag->extendedflags = __crace_nondet_int();
  tag->restrictions = __crace_nondet_int();
  tag->options = __crace_nondet_int();
  unsigned n = (unsigned)__crace_id3_count();
  tag->nframes = n;
  tag->frames = n ? __crace_alloc(n * sizeof(void *)) : 0;
  for (unsigned i = 0; i < n; i++)
    tag->frames[i] = __crace_id3_frame_input();
  tag->paddedsize = (unsigned long)(unsigned)__crace_nondet_int();
  file->tag = tag;
  return file;
}
CRACE_MODEL void *id3_file_tag(const void *file) {
  return ((const struct __crace_id3_file *)file)->tag;
}
CRACE_MODEL int id3_file_close(void *file) {
  struct __crace_id3_file *f = file;
  __crace_free(f->tag);
  __crace_free(f);
  return __crace_nondet_bits(1) ? -1 : 0;
}
CRACE_MODEL void *id3_tag_findframe(const void *t, const char *id,
                                    unsigned index) {
  const struct __crace_id3_tag *tag = t;
  if (id == 0 || *id == 0)
    return index < tag->nframes ? tag->frames[index] : 0;
  crace_size_t len = 0;
  while (id[len])
    len++;
  for (unsigned i = 0; i < tag->nframes; ++i) {
    const char *fid = tag->frames[i]->id;
    crace_size_t k = 0;
    while (k < len && fid[k] == id[k] && fid[k])
      k++;
    if ((k == len || fid[k] == id[k]) && index-- == 0)
      return tag->frames[i];
  }
  return 0;
}
CRACE_MODEL const unsigned long *
id3_field_getstring(const union __crace_id3_field *field) {
  if (field->type != 4)
    return 0;
  return field->string.ptr ? field->string.ptr : __crace_id3_ucs4_empty;
}
CRACE_MODEL const unsigned long *
id3_field_getfullstring(const union __crace_id3_field *field) {
  if (field->type != 5)
    return 0;
  return field->string.ptr ? field->string.ptr : __crace_id3_ucs4_empty;
}
CRACE_MODEL unsigned
id3_field_getnstrings(const union __crace_id3_field *field) {
  if (field->type != 6)
    return 0;
  return field->stringlist.nstrings;
}
CRACE_MODEL const unsigned long *
id3_field_getstrings(const union __crace_id3_field *field, unsigned index) {
  if (field->type != 6 || index >= field->stringlist.nstrings)
    return 0;
  const unsigned long *s = field->stringlist.strings[index];
  return s ? s : __crace_id3_ucs4_empty;
}
/* utf8.c: the bytes of one character (values above 0x7fffffff become
   U+00B7). */
CRACE_MODEL crace_size_t __crace_id3_utf8_encodechar(signed char *u,
                                                     unsigned long c) {
  if (c > 0x7fffffffUL)
    c = 0xb7;
  if (c <= 0x7f) {
    u[0] = (signed char)c;
    return 1;
  }
  int n = c <= 0x7ff       ? 2
          : c <= 0xffff    ? 3
          : c <= 0x1fffff  ? 4
          : c <= 0x3ffffff ? 5
                           : 6;
  static const unsigned char lead[7] = {0, 0, 0xc0, 0xe0, 0xf0, 0xf8, 0xfc};
  for (int i = n - 1; i > 0; i--) {
    u[i] = (signed char)(0x80 | (c & 0x3f));
    c >>= 6;
  }
  u[0] = (signed char)(lead[n] | c);
  return (crace_size_t)n;
}
CRACE_MODEL signed char *id3_ucs4_utf8duplicate(const unsigned long *ucs4) {
  crace_size_t size = 0;
  for (const unsigned long *p = ucs4; *p; p++)
    size += *p <= 0x7f         ? 1
            : *p <= 0x7ff      ? 2
            : *p <= 0xffff     ? 3
            : *p <= 0x1fffff   ? 4
            : *p <= 0x3ffffff  ? 5
            : *p <= 0x7fffffff ? 6
                               : 2;
  signed char *u = __crace_alloc(size + 1);
  if (!u)
    return 0;
  signed char *w = u;
  for (const unsigned long *p = ucs4; *p; p++)
    w += __crace_id3_utf8_encodechar(w, *p);
  *w = 0;
  return u;
}
