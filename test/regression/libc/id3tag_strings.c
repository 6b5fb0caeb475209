// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s -- -DRACY
// RUN: %not %crace --engine=lockset %s -- -DRACY 2>&1 | %FileCheck %s
// libid3tag (models/id3tag.c): id3_file_open parses the file's tag into
// fresh structs of input (frames, fields, strings); the field getters read
// the field, and id3_ucs4_utf8duplicate writes a fresh UTF-8 copy. The
// worker decodes and publishes the title under the lock main takes:
// race-free (unknown before the model). With RACY it decodes a string of
// its own and publishes it without the lock: main's read of the string
// races with the library's write of it (lockset reports it; explore,
// which reports accesses that can run at the same moment, cannot: main
// reads the string only once the pointer was written, after the library's
// writes), and its read of the pointer with the program's write (explore
// confirms it).
// CHECK: id3tag_strings.c:[[#LINE:]]:{{[0-9]+}}: warning: possible data race on 'heap object allocated at
// CHECK-SAME: id3tag_strings.c:[[#LINE]]:{{.*}}' (write by thread 'scan'
// CHECK: crace: verdict: possible-race
// expected-verdict: race-free
// expected-verdict(explore): race
#include <pthread.h>
#include <stdlib.h>
/* The part of <id3tag.h> (0.15) the program uses. */
typedef unsigned long id3_ucs4_t;
typedef signed char id3_utf8_t;
struct id3_file;
struct id3_tag;
union id3_field;
struct id3_frame {
  char id[5];
  char const *description;
  unsigned int refcount;
  int flags;
  int group_id;
  int encryption_method;
  unsigned char *encoded;
  unsigned long encoded_length;
  unsigned long decoded_length;
  unsigned int nfields;
  union id3_field *fields;
};
union id3_field {
  int type;
  struct {
    int type;
    long value;
  } number;
  struct {
    int type;
    unsigned nstrings;
    id3_ucs4_t **strings;
  } stringlist;
};
struct id3_file *id3_file_open(char const *, int);
int id3_file_close(struct id3_file *);
struct id3_tag *id3_file_tag(struct id3_file const *);
struct id3_frame *id3_tag_findframe(struct id3_tag const *, char const *,
                                    unsigned int);
unsigned int id3_field_getnstrings(union id3_field const *);
id3_ucs4_t const *id3_field_getstrings(union id3_field const *, unsigned int);
id3_utf8_t *id3_ucs4_utf8duplicate(id3_ucs4_t const *);

char *title;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *scan(void *arg) {
#ifdef RACY
  /* explore's search would spend its budget on the parsed tag's inputs
     before a frame with a string list: decode a string of the program's. */
  static const id3_ucs4_t name[] = {'A', 0xe9, 0x20ac, 0};
  char *u = (char *)id3_ucs4_utf8duplicate(name);
  title = u; // expected-race(explore)
  return 0;
#endif
  struct id3_file *f = id3_file_open("song.mp3", 0);
  if (!f)
    return 0;
  struct id3_tag *tag = id3_file_tag(f);
  struct id3_frame *fr = tag ? id3_tag_findframe(tag, "", 0) : 0;
  if (fr && fr->id[0] == 'T' && id3_field_getnstrings(&fr->fields[1])) {
    id3_ucs4_t const *s = id3_field_getstrings(&fr->fields[1], 0);
    pthread_mutex_lock(&lock);
    title = (char *)id3_ucs4_utf8duplicate(s);
    pthread_mutex_unlock(&lock);
  }
  id3_file_close(f);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, scan, 0);
  int c = 0;
#ifdef RACY
  if (title) // expected-race(explore)
    c = title[0];
#else
  pthread_mutex_lock(&lock);
  if (title)
    c = title[0];
  pthread_mutex_unlock(&lock);
#endif
  pthread_join(t, 0);
  return c;
}
