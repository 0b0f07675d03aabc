package app

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/complyd/complyd/internal/outbound"
	"github.com/complyd/complyd/internal/sanctions"
)

// defaultListMaxAge is the age in days past which a list is stale: OFAC and the UN publish
// at least weekly, so a list older than 8 days has missed at least one publication.
const defaultListMaxAge = 8

// loadListsConfig reads the FtM scheduled update and the freshness settings.
func loadListsConfig(c *config, devMode bool) error {
	c.FtMList = envOr("COMPLYD_FTM_LIST", sanctions.ListOpenSanctions)
	c.FtMEntitiesURL = strings.TrimSpace(os.Getenv("COMPLYD_FTM_ENTITIES_URL"))
	c.FtMDeltaURL = strings.TrimSpace(os.Getenv("COMPLYD_FTM_DELTA_URL"))
	var err error
	if c.FtMAllowPrivate, err = envBool("COMPLYD_FTM_ALLOW_PRIVATE", devMode); err != nil {
		return err
	}
	for k, u := range map[string]string{"COMPLYD_FTM_ENTITIES_URL": c.FtMEntitiesURL, "COMPLYD_FTM_DELTA_URL": c.FtMDeltaURL} {
		if err := outbound.ValidateURL(k, u, c.FtMAllowPrivate); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
	}
	if v := strings.TrimSpace(os.Getenv("COMPLYD_FTM_REFRESH")); v != "" && v != "0" && v != "off" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Minute {
			return fmt.Errorf("COMPLYD_FTM_REFRESH must be a duration of at least 1m (e.g. 1h), or off")
		}
		c.FtMRefresh = d
	}
	if c.FtMRefresh > 0 && c.FtMDeltaURL == "" && c.FtMEntitiesURL == "" {
		return fmt.Errorf("COMPLYD_FTM_REFRESH needs COMPLYD_FTM_DELTA_URL or COMPLYD_FTM_ENTITIES_URL")
	}
	if c.ListMaxAge, err = envInt("COMPLYD_SANCTIONS_MAX_AGE", defaultListMaxAge); err != nil {
		return err
	}
	if c.ListMaxAge < 1 {
		return fmt.Errorf("COMPLYD_SANCTIONS_MAX_AGE must be at least 1 (days)")
	}
	c.ExpectedLists = []string{sanctions.ListOFACSDN, sanctions.ListUNSC}
	if v := strings.TrimSpace(os.Getenv("COMPLYD_SANCTIONS_EXPECTED_LISTS")); v != "" {
		c.ExpectedLists = []string{}
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" && name != "none" {
				c.ExpectedLists = append(c.ExpectedLists, name)
			}
		}
	}
	c.ListMaxAgeByList, err = parseListAges(os.Getenv("COMPLYD_SANCTIONS_MAX_AGE_LISTS"))
	return err
}

// parseListAges reads "OFAC-SDN=8,OPENSANCTIONS=2" (days a list).
func parseListAges(v string) (map[string]int, error) {
	out := map[string]int{}
	for _, part := range strings.Split(v, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		name, days, ok := strings.Cut(part, "=")
		n, err := strconv.Atoi(strings.TrimSpace(days))
		if !ok || err != nil || n < 1 || strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("COMPLYD_SANCTIONS_MAX_AGE_LISTS: %q is not LIST=DAYS (days at least 1)", part)
		}
		out[strings.TrimSpace(name)] = n
	}
	return out, nil
}
