#!/bin/bash
# Runs the EXAMPLES section of a man page, jq-style: in .EX blocks, a line
# "$ cmd" is a command and the lines after it, up to the next command or .EE,
# are its expected standard output (when there are any; standard error is
# not compared). Commands of one page
# run in order in one scratch directory that has the repository's samples/.
# Exit status: 0 if every command succeeded and printed what the page says.
set -u
page=$1 repo=$2 dir=$3
mkdir -p "$dir" && ln -sfn "$repo/samples" "$dir/samples" && cd "$dir" || exit 2
awk '/^\.SH /{ex = ($2 == "EXAMPLES")} ex' "$page" |
	awk '/^\.EX/{on=1; next} /^\.EE/{on=0; print "\001END"; next} on' |
	sed -e 's/\\-/-/g' -e 's/\\e/\\/g' -e 's/\\(aq/'"'"'/g' >examples.txt
fail=0 cmd="" expect=""
run_one() {
	[ -z "$cmd" ] && return
	# Every stage of the last pipeline must succeed, except that a stage
	# before the last may die of SIGPIPE (141) when "| head" has read
	# enough: a slow build (ASan) gets there before writing everything.
	got=$(bash -c "$cmd"$'\n''st=("${PIPESTATUS[@]}"); n=${#st[@]}
		for ((i = 0; i < n; i++)); do
			[ "${st[i]}" -eq 0 ] && continue
			[ "${st[i]}" -eq 141 ] && [ $i -lt $((n - 1)) ] && continue
			exit "${st[i]}"
		done' 2>stderr.txt)
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAILED (exit $rc): $cmd"; echo "$got"; cat stderr.txt; fail=1
	elif [ -n "$expect" ] && [ "$got" != "${expect%$'\n'}" ]; then
		echo "WRONG OUTPUT: $cmd"; echo "expected:"; echo "${expect%$'\n'}"; echo "got:"; echo "$got"; fail=1
	fi
	cmd="" expect=""
}
while IFS= read -r line; do
	case "$line" in
	$'\001END') run_one ;;
	'$ '*) run_one; cmd=${line#\$ } ;;
	*) [ -n "$cmd" ] && expect+="$line"$'\n' ;;
	esac
done <examples.txt
run_one
exit $fail
