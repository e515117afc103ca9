#!/usr/bin/env python3
"""Rewrite what Ant prints under -verbose into the stack-trace form
javastack2hook.py reads (ant.conf's `ant` wrapper pipes the hooked run
through it). Under -verbose, Ant's DefaultLogger prints the failing
build's exception with its stack trace after "BUILD FAILED"; but
BuildException.toString() is "LOCATION: MESSAGE" (no class name), so the
trace's first line and a "Caused by: LOCATION: MESSAGE" line are given the
class org.apache.tools.ant.BuildException (it, or a subclass: all of them
print that way) and the location is taken off; SAXParseException's
"CLASS; systemId: ..; lineNumber: N; columnNumber: N; MESSAGE" becomes
"CLASS: MESSAGE". A trace printed in the
JVM's own form (ant.conf's driver, for an exception of Main.processArgs)
passes unchanged; every other line is dropped.
usage: ant -verbose ... 2>&1 | ant-hook.py"""
import re
import sys

BE = "org.apache.tools.ant.BuildException"
CLS = re.compile(r"^(?:Caused by: |Exception in thread \"[^\"]*\" )?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:: |$)")
# SAXParseException.toString(): "CLASS; systemId: ..; lineNumber: N;
# columnNumber: N; MESSAGE" (Ant's own handlers raise it with their text)
SAX = re.compile(r"^((?:Caused by: )?[\w$.]+); (?:publicId: [^;]*; )?(?:systemId: [^;]*; )?(?:lineNumber: -?\d+; )?(?:columnNumber: -?\d+; )?(.*)$")


def head(text):
    # take Location.toString() ("FILE: " or "FILE:LINE: ") off when present
    m = re.match(r"^(/[^:]*(?::\d+)?: )(.*)$", text)
    return m.group(2) if m else text


lines = sys.stdin.read().splitlines()
after_failed = False
for line in lines:
    if line.strip() == "BUILD FAILED":
        after_failed = True
        continue
    if after_failed:
        after_failed = False
        if CLS.match(line) and not line.startswith("/"):
            print(line)
        else:
            print(BE + ": " + head(line))
        continue
    m = SAX.match(line)
    if m and not line.startswith((" ", "\t", "/")) and re.search(r"Exception; ", line):
        print(m.group(1) + ": " + m.group(2))
        continue
    if line.startswith("Caused by: "):
        rest = line[len("Caused by: "):]
        if CLS.match(rest) and not rest.startswith("/"):
            print(line)
        else:
            print("Caused by: " + BE + ": " + head(rest))
        continue
    if line.startswith("Exception in thread ") or re.match(r"^\s+at ", line) or re.match(r"^\s+\.\.\. \d+ more$", line):
        print(line)
