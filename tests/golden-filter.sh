#!/usr/bin/env bash
# Records (JSON lines on stdin) as a fixture's golden file: one sorted JSON
# array without the fields that change with every scan or folder.
exec jq -s 'map(del(.analyzedSha, .analyzedAt, .contentChangedAt, .githubUrl, .sourceCode))
	| sort_by(.filePath, .lineNumber, .id)'
