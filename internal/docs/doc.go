// Package docs holds the repository's checks on its own documentation: every citation of a
// Markdown file, in a comment or a page, names a file that exists (citations_test.go).
package docs
