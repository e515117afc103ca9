/*
 * defend.c — the defensive fields, in the caller's language: how a caller
 * catches or detects this error (tryCatchPattern, naming the real class,
 * code, sentinel or variant), the check it can make first when the guard
 * tests only the function's parameters (validationCode, or typeGuard for
 * a type check), and a before/after fix when the message names the
 * replacement (exampleFix).
 */
#include "dsc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static bool is(const dsc *d, const char *dl)
{
	return dsc_eq(d->dialect, dl);
}

/* the message, shortened and safe inside a line comment */
static void msg_comment(fl_buf *b, const dsc *d)
{
	const char *m = d->e->error_message;
	size_t n = 0;
	fl_buf_putc(b, '"');
	for (const char *p = m; *p && n < 70; p++, n++)
		fl_buf_putc(b, *p == '\n' || *p == '\r' ? ' ' : *p);
	if (strlen(m) > 70)
		fl_buf_puts(b, "...");
	fl_buf_putc(b, '"');
}

static const char *comment(const dsc *d)
{
	return is(d, "python") || is(d, "ruby") ? "# " : "// ";
}

/* one line of what to do in the handler, by strategy */
static void handler(fl_buf *b, const dsc *d, const char *indent)
{
	const char *st = d->strategy;
	fl_buf_puts(b, indent);
	fl_buf_puts(b, comment(d));
	if (dsc_eq(st, "retry"))
		fl_buf_puts(b, "transient: retry a few times with a growing delay, then report it");
	else if (dsc_eq(st, "fallback"))
		fl_buf_puts(b, "fall back: use a default or another path, and say why");
	else if (dsc_eq(st, "validation") || dsc_eq(st, "type-guard"))
		fl_buf_puts(b, "the input was refused: report it to whoever supplied it");
	else
		fl_buf_puts(b, "handle it here, or add context and raise it again");
	fl_buf_putc(b, '\n');
}

/* the call a caller makes, or (for a class, a sentinel, a definition: no
 * one call raises it) a placeholder that is still valid code: a comment,
 * or dflt in Go, Rust and C */
static char *call_or(const dsc *d, const char *dflt)
{
	char *c = dsc_call(d);
	if (c)
		return c;
	const char *l = d->dialect;
	if (dsc_eq(l, "python"))
		return fl_xstrdup("...  # the code that raises it");
	if (dsc_eq(l, "ruby"))
		return fl_xstrdup("# the code that raises it");
	if (dsc_eq(l, "go") || dsc_eq(l, "rust") || dsc_eq(l, "c") || dsc_eq(l, "cpp"))
		return fl_xstrdup(dflt);
	return fl_xstrdup("/* the code that throws it */");
}

/* the program's name, for errors reported by a command: the repository's */
static const char *program(const dsc *d)
{
	if (!d->e->repo)
		return "PROGRAM";
	const char *r = strrchr(d->e->repo, '/');
	return r ? r + 1 : d->e->repo;
}

static void shell_status(fl_buf *b, const dsc *d)
{
	fl_buf_printf(b, "if ! %s ARGS 2>err.txt; then\n", program(d));
	fl_buf_puts(b, "    # it wrote ");
	msg_comment(b, d);
	fl_buf_puts(b, " to stderr and exited non-zero\n    cat err.txt >&2\nfi");
}

static bool constant(const char *s)
{
	bool up = true;
	for (const char *p = s; *p; p++)
		up &= isupper((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_' || *p == '-';
	return up || dsc_eq(s, "false") || dsc_eq(s, "NULL") || dsc_eq(s, "nullptr") ||
	       dsc_eq(s, "true");
}

static void try_c(fl_buf *b, const dsc *d)
{
	char *call = call_or(d, "the_call(...)");
	if (d->s->idiom && dsc_eq(d->s->idiom, "error message table")) {
		/* a table of texts by code: the caller prints what it gives */
		fl_buf_printf(b, "const char *text = %s;\n/* ", call);
		msg_comment(b, d);
		if (d->e->error_code)
			fl_buf_printf(b, " for %s", d->e->error_code);
		fl_buf_puts(b, ": the caller prints it, and the code says what failed */");
	} else if (d->fatal || (d->s->function && dsc_eq(d->s->function, "main"))) {
		shell_status(b, d);
	} else if (d->ret && constant(d->ret)) {
		fl_buf_printf(b, "if (%s == %s) {\n    /* ", call, d->ret);
		fl_buf_puts(b, d->logged ? "it has reported " : "it failed with ");
		msg_comment(b, d);
		fl_buf_puts(b, " */\n}");
	} else if (d->ret) {
		fl_buf_printf(b, "/* %s returns %s after reporting the error */\nresult = %s;\n", d->s->function, d->ret, call);
		fl_buf_puts(b, "if (result != 0) {\n    /* it has reported ");
		msg_comment(b, d);
		fl_buf_puts(b, " */\n}");
	} else if (d->logged && !dsc_eq(d->s->severity, FL_S_ERROR)) {
		fl_buf_puts(b, "/* only written to the error output (");
		msg_comment(b, d);
		fl_buf_printf(b, "); %s carries on, so there is nothing to catch */\n%s;", d->s->function ? d->s->function : "the code", call);
	} else {
		/* what the function returns on this path is not in the window */
		fl_buf_printf(b, "/* %s writes ", d->s->function ? d->s->function : "the code");
		msg_comment(b, d);
		fl_buf_puts(b, " to its error output; a caller learns of the failure\n   from its return value, as its declaration documents */\nrc = ");
		fl_buf_puts(b, call);
		fl_buf_puts(b, ";");
	}
	free(call);
}

static void try_go(fl_buf *b, const dsc *d)
{
	const char *cls = d->e->error_class;
	char *call = call_or(d, "f()");
	if (d->s->function && dsc_eq(d->s->function, "main") && (d->logged || dsc_eq(d->s->type, FL_T_PANIC))) {
		shell_status(b, d); /* the program's main: its exit status */
	} else if (dsc_eq(d->s->type, FL_T_PANIC)) {
		fl_buf_puts(b, "defer func() {\n\tif r := recover(); r != nil {\n\t\t// r holds the panic value ");
		msg_comment(b, d);
		fl_buf_printf(b, "\n\t}\n}()\n%s", call);
	} else if (d->fatal && d->logged) {
		shell_status(b, d);
	} else if (d->logged) {
		fl_buf_puts(b, "// written to the log or standard error, not returned: ");
		fl_buf_printf(b, "%s carries on\n%s", d->s->function ? d->s->function : "the code", call);
	} else if (d->sentinel && cls) {
		fl_buf_printf(b, "if err := %s; errors.Is(err, ", d->s->function ? call : "f()");
		dsc_qualified(b, d, cls);
		fl_buf_puts(b, ") {\n");
		handler(b, d, "\t");
		fl_buf_puts(b, "}");
	} else if (cls && !dsc_generic_class(cls) && d->defn) {
		fl_buf_puts(b, "var e *");
		dsc_qualified(b, d, cls);
		fl_buf_puts(b, "\nif errors.As(err, &e) {\n");
		handler(b, d, "\t");
		fl_buf_puts(b, "}");
	} else if (cls && !dsc_generic_class(cls)) {
		fl_buf_puts(b, "var e *");
		dsc_qualified(b, d, cls);
		fl_buf_printf(b, "\nif err := %s; errors.As(err, &e) {\n", call);
		handler(b, d, "\t");
		fl_buf_puts(b, "}");
	} else {
		fl_buf_printf(b, "if err := %s; err != nil {\n", call);
		handler(b, d, "\t");
		fl_buf_printf(b, "\treturn fmt.Errorf(\"%s: %%w\", err)\n}", d->fshort ? d->fshort : "calling it");
	}
	free(call);
}

static void try_rust(fl_buf *b, const dsc *d)
{
	const char *cls = d->e->error_class;
	char *call = call_or(d, "result");
	if (dsc_eq(d->s->type, FL_T_PANIC) || d->unwrapped) {
		fl_buf_puts(b, "// a panic is not an error value: check the input first, or isolate the call\n");
		fl_buf_printf(b, "let res = std::panic::catch_unwind(|| %s);\nif res.is_err() {\n", call);
		handler(b, d, "    ");
		fl_buf_puts(b, "}");
	} else if (d->logged) {
		fl_buf_printf(b, "// only written to the log or standard error: %s carries on\n%s;", d->s->function ? d->s->function : "the code", call);
	} else if (cls && strstr(cls, "::") && !strstr(cls, "io::Error")) {
		fl_buf_printf(b, "match %s {\n    Err(%s { .. }) | Err(%s(..)) => {\n", call, cls, cls);
		handler(b, d, "        ");
		fl_buf_puts(b, "    }\n    Err(e) => return Err(e.into()),\n    Ok(v) => v,\n}");
	} else if (cls && !dsc_generic_class(cls) && !strstr(cls, "io::Error")) {
		fl_buf_printf(b, "if let Err(err) = &%s {\n    if let Some(e) = err.downcast_ref::<%s>() {\n", call, cls);
		handler(b, d, "        ");
		fl_buf_puts(b, "    }\n}");
	} else {
		fl_buf_printf(b, "let v = %s\n    .with_context(|| \"%s failed\")?;", call, d->fshort ? d->fshort : "the call");
	}
	free(call);
}

static void try_js(fl_buf *b, const dsc *d)
{
	const char *cls = d->e->error_class;
	char *call = call_or(d, "run()");
	if (d->logged) {
		fl_buf_printf(b, "// only logged, not thrown: %s carries on\n%s;", d->s->function ? d->s->function : "the code", call);
		free(call);
		return;
	}
	fl_buf_printf(b, "try {\n  %s;\n} catch (err) {\n", call);
	if (d->e->error_code)
		fl_buf_printf(b, "  if (err.code === '%s') {\n", d->e->error_code);
	else if (cls && !dsc_generic_class(cls))
		fl_buf_printf(b, "  if (err instanceof %s) {\n", dsc_last(cls));
	else {
		/* a plain Error: its message is all there is */
		fl_buf_puts(b, "  if (err instanceof Error && err.message.startsWith(");
		fl_buf_putc(b, '\'');
		size_t n = 0;
		for (const char *p = d->e->error_message; *p && n < 40; p++, n++) {
			if (*p == '%' || *p == '{' || *p == '$' || *p == '\n')
				break;
			if (*p == '\'' || *p == '\\')
				fl_buf_putc(b, '\\');
			fl_buf_putc(b, *p);
		}
		fl_buf_puts(b, "')) {\n");
	}
	handler(b, d, "    ");
	fl_buf_puts(b, "  } else {\n    throw err;\n  }\n}");
	free(call);
}

/* Java, Kotlin, Scala, C# */
static void try_jvm(fl_buf *b, const dsc *d)
{
	const char *cls = d->e->error_class ? dsc_last(d->e->error_class) : NULL;
	char *call = call_or(d, "run()");
	if (d->logged) {
		fl_buf_printf(b, "// only logged, not thrown: %s carries on\n%s;", d->s->function ? d->s->function : "the code", call);
		free(call);
		return;
	}
	if (!cls)
		cls = is(d, "csharp") ? "Exception" : "RuntimeException";
	if (is(d, "kotlin"))
		fl_buf_printf(b, "try {\n    %s\n} catch (e: %s) {\n", call, cls);
	else if (is(d, "scala"))
		fl_buf_printf(b, "try {\n    %s\n} catch {\n  case e: %s =>\n", call, cls);
	else
		fl_buf_printf(b, "try {\n    %s;\n} catch (%s e) {\n", call, cls);
	handler(b, d, "    ");
	fl_buf_puts(b, "}");
	free(call);
}

static void try_python(fl_buf *b, const dsc *d)
{
	const char *cls = d->e->error_class;
	char *call = call_or(d, "run()");
	if (d->logged && strstr(d->idiom, "warn") && strstr(d->idiom, "warnings")) {
		fl_buf_printf(b, "with warnings.catch_warnings():\n    warnings.simplefilter(\"error\", %s)\n    %s  # the warning is raised here as an exception",
			      cls ? cls : "UserWarning", call);
	} else if (d->logged) {
		fl_buf_printf(b, "# only logged, not raised: %s carries on\n%s", d->s->function ? d->s->function : "the module", call);
	} else {
		fl_buf_printf(b, "try:\n    %s\nexcept %s as e:\n", call, cls ? cls : "Exception");
		handler(b, d, "    ");
		fl_buf_puts(b, "    raise");
	}
	free(call);
}

static void try_ruby(fl_buf *b, const dsc *d)
{
	const char *cls = d->e->error_class;
	char *call = call_or(d, "run");
	if (d->logged)
		fl_buf_printf(b, "# only written to the output, not raised: %s carries on\n%s", d->s->function ? d->s->function : "the code", call);
	else {
		fl_buf_printf(b, "begin\n  %s\nrescue %s => e\n", call, cls ? cls : "RuntimeError");
		handler(b, d, "  ");
		fl_buf_puts(b, "end");
	}
	free(call);
}

static void try_php(fl_buf *b, const dsc *d)
{
	const char *cls = d->e->error_class;
	char *call = call_or(d, "run()");
	if (d->logged)
		fl_buf_printf(b, "// only written to the output, not thrown: %s carries on\n%s;", d->s->function ? d->s->function : "the code", call);
	else {
		fl_buf_printf(b, "try {\n    %s;\n} catch (%s%s $e) {\n", call, cls && !strchr(cls, '\\') ? "\\" : "", cls ? cls : "Exception");
		handler(b, d, "    ");
		fl_buf_puts(b, "}");
	}
	free(call);
}

/* an HTTP error response: its client checks the status */
static void try_http(fl_buf *b, const dsc *d)
{
	const char *l = d->dialect;
	char st[32];
	int h = d->e->http_status;
	bool strict = dsc_eq(l, "js") || dsc_eq(l, "ts") || dsc_eq(l, "php");
	if (h)
		snprintf(st, sizeof st, "%s %d", strict ? "===" : "==", h);
	else
		snprintf(st, sizeof st, ">= 400");
	const char *c = comment(d);
	if (dsc_eq(l, "python"))
		fl_buf_printf(b, "resp = requests.get(url)\nif resp.status_code %s:\n", st);
	else if (dsc_eq(l, "js") || dsc_eq(l, "ts"))
		fl_buf_printf(b, "const res = await fetch(url);\nif (res.status %s) {\n", st);
	else if (dsc_eq(l, "go"))
		fl_buf_printf(b, "resp, err := http.Get(url)\nif err == nil && resp.StatusCode %s {\n", st);
	else if (dsc_eq(l, "ruby"))
		fl_buf_printf(b, "res = Net::HTTP.get_response(uri)\nif res.code.to_i %s\n", st);
	else if (dsc_eq(l, "php"))
		fl_buf_printf(b, "$res = $client->request('GET', $url, ['http_errors' => false]);\nif ($res->getStatusCode() %s) {\n", st);
	else if (dsc_eq(l, "rust"))
		fl_buf_printf(b, "let res = client.get(url).send()?;\nif res.status().as_u16() %s {\n", st);
	else if (dsc_eq(l, "csharp"))
		fl_buf_printf(b, "var res = await client.GetAsync(url);\nif ((int)res.StatusCode %s) {\n", st);
	else if (dsc_eq(l, "c") || dsc_eq(l, "cpp")) {
		c = "/* ";
		fl_buf_printf(b, "long code = 0;\ncurl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);\nif (code %s) {\n", st);
	} else
		fl_buf_printf(b, "HttpResponse<String> res = client.send(req, HttpResponse.BodyHandlers.ofString());\nif (res.statusCode() %s) {\n", st);
	bool py = dsc_eq(l, "python");
	fl_buf_puts(b, "    ");
	fl_buf_puts(b, c);
	fl_buf_puts(b, "the body carries ");
	msg_comment(b, d);
	fl_buf_puts(b, c[0] == '/' && c[1] == '*' ? " */\n" : "\n");
	if (!py && !dsc_eq(l, "ruby"))
		fl_buf_puts(b, "}");
	else if (!py)
		fl_buf_puts(b, "end");
	else
		fl_buf_puts(b, "    ...");
}

void dsc_try_catch(dsc *d)
{
	fl_buf b = {0};
	const char *l = d->dialect;
	if (dsc_eq(d->s->type, FL_T_HTTP))
		try_http(&b, d);
	else if (dsc_eq(l, "c") || dsc_eq(l, "cpp"))
		try_c(&b, d);
	else if (dsc_eq(l, "go"))
		try_go(&b, d);
	else if (dsc_eq(l, "rust"))
		try_rust(&b, d);
	else if (dsc_eq(l, "js") || dsc_eq(l, "ts"))
		try_js(&b, d);
	else if (dsc_eq(l, "python"))
		try_python(&b, d);
	else if (dsc_eq(l, "ruby"))
		try_ruby(&b, d);
	else if (dsc_eq(l, "php"))
		try_php(&b, d);
	else
		try_jvm(&b, d);
	d->e->try_catch_pattern = dsc_take(&b);
}

/* ---- the check a caller makes first ------------------------------------------- */

void dsc_validation(dsc *d)
{
	if (!d->checkable || !d->guard || !d->s->function || d->cdef || d->sentinel || d->defined)
		return;
	bool type = false;
	for (size_t i = 0; i < d->g.n; i++)
		type |= d->g.a[i].kind == GA_TYPE;
	char *call = call_or(d, d->s->function);
	const char *what = d->logged ? "would report" : "would fail with";
	fl_buf b = {0};
	const char *l = d->dialect;
	if (dsc_eq(l, "python")) {
		fl_buf_printf(&b, "if %s:\n    # %s %s ", d->guard, d->s->function, what);
		msg_comment(&b, d);
		fl_buf_printf(&b, "\n    ...\nelse:\n    %s", call);
	} else if (dsc_eq(l, "ruby")) {
		fl_buf_printf(&b, "if %s\n  # %s %s ", d->guard, d->s->function, what);
		msg_comment(&b, d);
		fl_buf_printf(&b, "\nelse\n  %s\nend", call);
	} else if (dsc_eq(l, "go")) {
		fl_buf_printf(&b, "if %s {\n\t// %s %s ", d->guard, d->s->function, what);
		msg_comment(&b, d);
		fl_buf_printf(&b, "\n} else {\n\t%s\n}", call);
	} else if (dsc_eq(l, "rust")) {
		fl_buf_printf(&b, "if %s {\n    // %s %s ", d->guard, d->s->function, what);
		msg_comment(&b, d);
		fl_buf_printf(&b, "\n} else {\n    %s;\n}", call);
	} else {
		bool c = dsc_eq(l, "c") || dsc_eq(l, "cpp");
		fl_buf_printf(&b, "if (%s) {\n    %s%s %s ", d->guard, c ? "/* " : "// ", d->s->function, what);
		msg_comment(&b, d);
		fl_buf_printf(&b, "%s\n} else {\n    %s;\n}", c ? " */" : "", call);
	}
	free(call);
	if (type)
		d->e->type_guard = dsc_take(&b);
	else
		d->e->validation_code = dsc_take(&b);
}

/* ---- a before/after fix, when the facts name both sides ----------------------- */

/* a token at p: quoted ("x", 'x', `x`) or a name with dots, colons,
 * dashes and a trailing "()"; its text without quotes, or NULL */
static char *token_at(const char *p)
{
	if (*p == '"' || *p == '\'' || *p == '`') {
		const char *e = strchr(p + 1, *p);
		if (!e || e == p + 1 || e - p > 60)
			return NULL;
		return fl_xstrndup(p + 1, (size_t)(e - p - 1));
	}
	const char *e = p;
	while (isalnum((unsigned char)*e) || strchr("_.:-$/", *e))
		e++;
	if (e[0] == '(' && e[1] == ')')
		e += 2;
	while (e > p && strchr(".:-/", e[-1]))
		e--;
	if (e == p || e - p > 60)
		return NULL;
	return fl_xstrndup(p, (size_t)(e - p));
}

static bool placeholder_in(const char *s)
{
	return strchr(s, '{') || strchr(s, '%') || strchr(s, '$');
}

/* "A is deprecated ..., use B instead", "the deprecated option "A". Use
 * "B" instead": A and B */
static bool replacement(const char *m, char **old, char **repl)
{
	*old = *repl = NULL;
	const char *dep = strstr(m, "deprecated");
	if (!dep)
		return false;
	const char *u = NULL;
	for (const char *p = m; *p; p++)
		if ((p[0] | 0x20) == 'u' && (p == m || !isalnum((unsigned char)p[-1])) &&
		    (strncmp(p, "use ", 4) == 0 || strncmp(p, "Use ", 4) == 0)) {
			const char *in = strstr(p + 4, " instead");
			if (in && in - p < 70) {
				u = p + 4;
				break;
			}
		}
	if (!u || dep > u)
		return false;
	*repl = token_at(u);
	/* the replacement is one name: " instead" follows it */
	if (*repl) {
		const char *after = u + strlen(*repl) + ((*u == '"' || *u == '\'' || *u == '`') ? 2 : 0);
		if (strncmp(after, " instead", 8) != 0) {
			free(*repl);
			*repl = NULL;
		}
	}
	/* the old one: a quoted name before "use", else the message's first
	 * name when "is deprecated" follows it */
	for (const char *p = m; p < u && !*old; p++)
		if ((*p == '"' || *p == '`' || *p == '\'') && (p == m || p[-1] == ' '))
			*old = token_at(p);
	if (!*old) {
		char *first = token_at(m);
		if (first && strncmp(m + strlen(first), " is deprecated", 14) == 0)
			*old = first;
		else
			free(first);
	}
	if (*old && *repl && !dsc_eq(*old, *repl) && !placeholder_in(*old) && !placeholder_in(*repl) &&
	    strlen(*repl) > 1)
		return true;
	free(*old);
	free(*repl);
	*old = *repl = NULL;
	return false;
}

void dsc_example_fix(dsc *d)
{
	fl_buf b = {0};
	const char *c = comment(d);
	bool cblock = dsc_eq(d->dialect, "c") || dsc_eq(d->dialect, "cpp");
	char *old, *repl;
	if (replacement(d->e->error_message, &old, &repl)) {
		fl_buf_printf(&b, "%sbefore%s\n%s\n%safter%s\n%s", cblock ? "/* " : c, cblock ? " */" : "", old,
			      cblock ? "/* " : c, cblock ? " */" : "", repl);
		free(old);
		free(repl);
	} else if (d->unwrapped && dsc_eq(d->dialect, "rust") && !strchr(d->s->guard, '\n')) {
		/* Rust's .expect: the caller gets the error instead of a panic */
		fl_buf_printf(&b, "// before\nlet v = %s.expect(\"", d->s->guard);
		for (const char *p = d->e->error_message; *p; p++) {
			if (*p == '"' || *p == '\\')
				fl_buf_putc(&b, '\\');
			fl_buf_putc(&b, *p);
		}
		fl_buf_printf(&b, "\");\n// after: return the error to the caller (anyhow)\nlet v = %s.context(\"", d->s->guard);
		for (const char *p = d->e->error_message; *p; p++) {
			if (*p == '"' || *p == '\\')
				fl_buf_putc(&b, '\\');
			fl_buf_putc(&b, *p);
		}
		fl_buf_puts(&b, "\")?;");
	} else {
		return;
	}
	d->e->example_fix = dsc_take(&b);
}
