package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// repo is the git repository that holds the module under test.
type repo struct {
	// dir is where git runs; top is the repository's root, with symbolic
	// links resolved.
	dir, top string
}

// gitError is a git command that failed: its exit code and the first line
// it wrote to stderr.
type gitError struct {
	args   []string
	code   int
	stderr string
}

func (e *gitError) Error() string {
	return fmt.Sprintf("git %s: exit status %d: %s", strings.Join(e.args, " "), e.code, e.stderr)
}

// git runs git in the repository's directory and returns its stdout.
func (r *repo) git(ctx context.Context, args ...string) (string, error) {
	return runGit(ctx, r.dir, args...)
}

func runGit(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	// The user's locale and pager must not change what git prints.
	cmd.Env = append(os.Environ(), "LC_ALL=C", "GIT_PAGER=cat", "GIT_OPTIONAL_LOCKS=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return stdout.String(), &gitError{args: args, code: ee.ExitCode(), stderr: firstLine(stderr.String())}
	case errors.Is(err, exec.ErrNotFound):
		return "", &Error{Msg: "git not found: cling ci reads the change from git, which must be on the PATH"}
	case err != nil:
		return "", fmt.Errorf("running git %s: %w", strings.Join(args, " "), err)
	}
	return stdout.String(), nil
}

// openRepo finds the git repository holding dir.
func openRepo(ctx context.Context, dir string) (*repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("resolving %s: %w", dir, err)
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, &Error{Msg: fmt.Sprintf("directory %s does not exist", dir)}
	}
	out, err := runGit(ctx, abs, "rev-parse", "--show-toplevel")
	var ge *gitError
	if errors.As(err, &ge) {
		return nil, &Error{Msg: fmt.Sprintf("%s is not in a git repository: cling ci judges the change between a base commit and HEAD", abs)}
	}
	if err != nil {
		return nil, err
	}
	top := strings.TrimSpace(out)
	if top == "" {
		return nil, &Error{Msg: fmt.Sprintf("%s is not in a git work tree: cling ci judges the change between a base commit and HEAD", abs)}
	}
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	return &repo{dir: abs, top: top}, nil
}

// commit resolves a revision to a commit hash, or returns "" when the
// repository has no such commit.
func (r *repo) commit(ctx context.Context, rev string) (string, error) {
	out, err := r.git(ctx, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	var ge *gitError
	if errors.As(err, &ge) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// resolveBase resolves the base REF to a commit. A branch name that only
// exists as a remote-tracking branch of origin (what a CI checkout has)
// resolves to origin/REF. It returns the name it resolved.
func (r *repo) resolveBase(ctx context.Context, ref string) (name, hash string, err error) {
	if strings.HasPrefix(ref, "-") {
		return "", "", &Error{Msg: fmt.Sprintf("base %q is not a revision", ref)}
	}
	if hash, err = r.commit(ctx, ref); err != nil || hash != "" {
		return ref, hash, err
	}
	if !strings.HasPrefix(ref, "origin/") {
		if hash, err = r.commit(ctx, "origin/"+ref); err != nil || hash != "" {
			return "origin/" + ref, hash, err
		}
	}
	branch := strings.TrimPrefix(ref, "origin/")
	return "", "", &Error{Msg: fmt.Sprintf("base %s not found: fetch it first (git fetch origin %s; in GitHub Actions, actions/checkout with fetch-depth: 0)", ref, branch)}
}

// head resolves HEAD.
func (r *repo) head(ctx context.Context) (string, error) {
	h, err := r.commit(ctx, "HEAD")
	if err == nil && h == "" {
		return "", &Error{Msg: "HEAD has no commit yet: commit the change, or compare uncommitted changes with a base that exists"}
	}
	return h, err
}

// mergeBase returns the best common ancestor of base and head.
func (r *repo) mergeBase(ctx context.Context, baseName, base, head string) (string, error) {
	out, err := r.git(ctx, "merge-base", base, head)
	var ge *gitError
	if errors.As(err, &ge) && ge.code == 1 {
		shallow, _ := r.git(ctx, "rev-parse", "--is-shallow-repository")
		if strings.TrimSpace(shallow) == "true" {
			return "", &Error{Msg: fmt.Sprintf("no merge base of %s and HEAD in this shallow clone: fetch the history (git fetch --unshallow; in GitHub Actions, actions/checkout with fetch-depth: 0)", baseName)}
		}
		return "", &Error{Msg: fmt.Sprintf("%s and HEAD have no common history: name a base that HEAD grew from", baseName)}
	}
	if err != nil {
		return "", fmt.Errorf("finding the merge base of %s and HEAD: %w", baseName, err)
	}
	return strings.TrimSpace(out), nil
}

// changes returns the lines changed since the commit from: up to HEAD, or
// up to the working tree (staged, unstaged and untracked files not
// ignored) when worktree is set.
func (r *repo) changes(ctx context.Context, from string, worktree bool) (*Changes, error) {
	args := []string{"-c", "core.quotePath=false", "diff", "-U0", "--no-color", "--no-ext-diff", "--no-textconv",
		"--no-renames", "--ignore-submodules", "--src-prefix=a/", "--dst-prefix=b/", from}
	if !worktree {
		args = append(args, "HEAD")
	}
	out, err := runGit(ctx, r.top, append(args, "--")...)
	if err != nil {
		return nil, fmt.Errorf("reading the change: %w", err)
	}
	files, err := parseDiff(out)
	if err != nil {
		return nil, fmt.Errorf("reading the change: %w", err)
	}
	c := &Changes{Root: r.top, Files: map[string]*FileChange{}}
	c.add(files)
	if !worktree {
		return c, nil
	}
	out, err = runGit(ctx, r.top, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, fmt.Errorf("listing untracked files: %w", err)
	}
	var untracked []*FileChange
	for _, p := range strings.Split(out, "\x00") {
		if p == "" {
			continue
		}
		src, err := os.ReadFile(filepath.Join(r.top, filepath.FromSlash(p)))
		if err != nil {
			continue // a file that went away, or not a regular file
		}
		fc := &FileChange{Path: p, Lines: map[int]bool{}}
		n := bytes.Count(src, []byte("\n"))
		if len(src) > 0 && src[len(src)-1] != '\n' {
			n++
		}
		for l := 1; l <= n; l++ {
			fc.Lines[l] = true
		}
		untracked = append(untracked, fc)
	}
	c.add(untracked)
	return c, nil
}

// firstLine returns the first non-empty line of s.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
