package main

import "fmt"

// count says n things in English: "1 roll", "3 rolls".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
