package app

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// devEnvPath is where `complyd dev` writes the variables of the run (DATABASE_URL, COMPLYD_URL),
// relative to the working directory: `. .complyd/env` in a shell, and the operator commands read
// DATABASE_URL from it by themselves when the environment has none.
var devEnvPath = filepath.Join(".complyd", "env")

// writeDevEnv writes vars (name, value pairs) as a shell file of `export NAME='value'` lines.
func writeDevEnv(path string, vars [][2]string) error {
	var b strings.Builder
	b.WriteString("# written by `complyd dev` for the run in progress; `. .complyd/env` in a shell\n")
	for _, v := range vars {
		fmt.Fprintf(&b, "export %s='%s'\n", v[0], strings.ReplaceAll(v[1], "'", `'\''`))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o600)
}

// readDevEnv reads a file written by writeDevEnv; a missing file is an empty map.
func readDevEnv(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return map[string]string{}, nil
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	vars := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, value, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
		if !ok {
			continue
		}
		if len(value) >= 2 && value[0] == '\'' && value[len(value)-1] == '\'' {
			value = strings.ReplaceAll(value[1:len(value)-1], `'\''`, "'")
		}
		vars[name] = value
	}
	return vars, sc.Err()
}

// loadCLIConfig is the configuration of the operator commands (migrate, tenant, wallet,
// watchlist): without DATABASE_URL in the environment they use the database of the `complyd dev`
// started in this directory, from .complyd/env, and say so on stderr.
func loadCLIConfig(devMode bool) (config, error) {
	url := os.Getenv("DATABASE_URL")
	if url == "" {
		vars, err := readDevEnv(devEnvPath)
		if err != nil {
			return config{}, err
		}
		if url = vars["DATABASE_URL"]; url != "" {
			fmt.Fprintf(os.Stderr, "complyd: DATABASE_URL from %s (complyd dev)\n", devEnvPath)
		}
	}
	return loadConfigURL(devMode, url)
}
