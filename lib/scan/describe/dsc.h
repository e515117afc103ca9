/*
 * dsc.h — what the explanation writer (describe/) knows of one record:
 * the facts the scanner found (function, guard, idiom, class, code,
 * status, source window) read once into a struct that every field's
 * writer uses.  Nothing here is invented: each phrase is derived from
 * those facts, and a field that the facts cannot support is left null.
 */
#ifndef FL_SCAN_DESCRIBE_DSC_H
#define FL_SCAN_DESCRIBE_DSC_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "faultline.h"
#include "../lang.h"
#include "../../util.h"

/* the kinds of one condition of a guard */
enum {
	GA_OTHER,    /* a condition described as written */
	GA_NULL,     /* a value is missing: nil, None, NULL, null */
	GA_EMPTY,    /* a value is empty */
	GA_CMP,      /* a comparison of a value with another */
	GA_TYPE,     /* a type check */
	GA_MEMBER,   /* a key or member is missing or present */
	GA_FAILED,   /* a call failed (its result, or an error it set) */
	GA_PRED,     /* a predicate call is true or false */
	GA_FLAG,     /* a flag or setting is set or not */
	GA_EXISTS,   /* a file or path exists or not */
	GA_ONEOF,    /* a value is one of several (other: them, '\x01' between) */
};

#define DSC_ATOMS 6
#define DSC_ONEOF 20 /* comparisons of one value read as "one of" them */

/* a and b are the same text: the first bytes compared before the call,
 * since most of the describer's comparisons are with tables of words
 * that differ at once */
static inline bool dsc_eq(const char *a, const char *b)
{
	return a[0] == b[0] && strcmp(a, b) == 0;
}

/* one condition of a guard */
typedef struct dsc_atom {
	char *text;      /* as written, without its negation */
	bool neg;        /* written negated (`!x`, `not x`) */
	int kind;        /* GA_* */
	char *subject;   /* the value it is about, as written, or NULL */
	char *other;     /* the other side, type or key, or NULL */
	char *op;        /* a comparison's operator (flipped when neg) */
	char *call;      /* GA_FAILED: the call that failed, or NULL */
	bool caller;     /* names only the function's parameters */
} dsc_atom;

typedef struct dsc_guard {
	dsc_atom a[DSC_ATOMS];
	size_t n;        /* 0: no guard, or one too complex to split */
	bool any;        /* the atoms are joined by "or" (else "and") */
	/* a guard that mixes the two (`a || b && c`): the atoms of one
	 * "and" group share a number, the groups are joined by "or" */
	bool mixed;
	unsigned char grp[DSC_ATOMS];
} dsc_guard;

/* what one record's writers read */
typedef struct dsc {
	fl_entry *e;
	const fl_site *s;
	const char *lang;       /* scanner family: "c", "go", "jvm" ... */
	const char *dialect;    /* the file's language: "python", "go",
				   "rust", "js", "ts", "java", "kotlin",
				   "scala", "csharp", "ruby", "php", "c",
				   "cpp" */
	const char *idiom;      /* the construct, "sentinel " taken off */
	/* what the site is */
	bool cdef;      /* an error class holding its default message */
	bool fixed;     /* ... that cannot be given another */
	bool sentinel;  /* an error value declared at the top level */
	bool defined;   /* an error catalogue's entry */
	bool unwrapped; /* Rust's .expect on an Err or None */
	bool wrapper;   /* Rust's .context/.with_context/.wrap_err: this
			   message is added to the receiver's error */
	bool arm;       /* a match arm */
	bool catch_all; /* the `_` arm */
	bool made;      /* an error factory's return */
	bool stored;    /* an exception made and kept, raised later (python's "stored") */
	bool defn;      /* an error type's own message: Rust's #[error] and
			   Display, Go's Error() string */
	bool logged;    /* written to a log or the console, not raised */
	bool fatal;     /* the program stops (a fatal report or exit) */
	/* the function */
	char *fshort;   /* its own name: "locate" of "Locator.locate" */
	char *owner;    /* its class or type, or NULL */
	bool ctor;      /* a constructor */
	bool stat;      /* a static method (or a class method) */
	fl_strv params; /* its parameters' names, from the window */
	bool noparams;  /* its parameter list was read and is empty: `()`, C's `(void)` */
	/* the guard */
	char *guard;    /* the guard, or NULL (a match arm's is kept out) */
	char *caught;   /* no guard: the class a handler around the site
			   catches (`except OSError`), or NULL */
	dsc_guard g;
	bool checkable; /* every condition names only the parameters */
	/* C: what the function returns after the site, or NULL */
	char *ret;
	/* the family and the way a caller handles it */
	const char *family;
	const char *strategy;
	const char *verb;     /* what the code was doing: "open", "parse" ... */
	char *doing;          /* ... as a phrase: "opening `path`", or NULL */
	bool placeholders;    /* the message has run-time parts */
	/* where each line of the window starts (wline()), made by dsc_init
	 * for the window at lines_of */
	const char *lines_of;
	size_t *line_at;
	int nlines;
	/* the guard's words (dsc_guard_words), when false and when true,
	 * made once: gw points at gw_mem */
	char **gw;
	char *gw_mem[2];
} dsc;

/* facts.c */
void dsc_init(dsc *d, fl_entry *e, const fl_site *s, const char *lang);
void dsc_free(dsc *d);
/* how a caller calls the function, in its language: "locator.locate(r)" */
char *dsc_call(const dsc *d);
/* the package a caller imports the file's names from, or NULL */
const char *dsc_package(const dsc *d);
/* name as a caller in another package writes it (Go: `store.ErrX`) */
void dsc_qualified(fl_buf *b, const dsc *d, const char *name);
/* the name of the error as a caller's language spells it, or NULL */
const char *dsc_class(const dsc *d);
/* the last segment of a class or path: "Error" of "io::Error" */
const char *dsc_last(const char *name);
/* the assignment of var in the window before the site: the callee, or NULL */
char *dsc_assigned_call(const dsc *d, const char *var);
bool dsc_generic_class(const char *cls);
/* The value of key in a dict written in the window before the site
 * (`{'type': name, 'value': arg_string}`, filling a `%(type)s` message
 * through `msg % args`): the expression, or NULL. */
char *dsc_dict_value(const dsc *d, const char *key);
/* Go's `v, ok := expr` of var in the window before the site: expr, or NULL */
char *dsc_comma_ok(const dsc *d, const char *var);
/* the arguments that fill the message's positional placeholders, read from
 * the raising statement in the window: printf's after the format, Python's
 * `% (...)` and `.format(...)`, Rust's format! after the literal (keyword
 * arguments left out); none when the statement is not read */
void dsc_format_args(const dsc *d, fl_strv *out);

/* guard.c */
void dsc_guard_parse(dsc *d);
void dsc_guard_free(dsc_guard *g);
/* the condition in words, as the site sees it (when=true) or its
 * opposite, the state that avoids the site (when=false) */
void dsc_guard_words(fl_buf *b, const dsc *d, bool when);
void dsc_atom_words(fl_buf *b, const dsc *d, const dsc_atom *a, bool when);
/* s measures a length: len(x), x.length, x.size() ... */
bool dsc_measured(const char *s);
/* "could not read the ASN1 bit string" of a callee, or NULL */
char *dsc_call_failure(const char *callee);

/* family.c */
void dsc_classify(dsc *d);
/* the words of an identifier: "ReadASN1BitString" -> read asn1 bit string;
 * the words live in one block (store) */
typedef struct dsc_wordv {
	char **v;
	size_t n;
	char *store;
} dsc_wordv;
void dsc_words(const char *ident, dsc_wordv *out);
void dsc_wordv_free(dsc_wordv *w);

/* prose.c: documentation, triggerScenarios, commonSituations, solutions,
 * preventionTips */
void dsc_documentation(dsc *d);
void dsc_triggers(dsc *d);
void dsc_situations(dsc *d);
void dsc_solutions(dsc *d);
void dsc_prevention(dsc *d);

/* defend.c: tryCatchPattern, validationCode, typeGuard, exampleFix */
void dsc_try_catch(dsc *d);
void dsc_validation(dsc *d);
void dsc_example_fix(dsc *d);

/* tags.c */
void dsc_tags(dsc *d);

/* text as a Markdown code span */
void dsc_code(fl_buf *b, const char *text);
char *dsc_take(fl_buf *b);

#endif
