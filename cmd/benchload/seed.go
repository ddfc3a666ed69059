package main

import (
	"context"
	"fmt"
	"net/http"

	"golang.org/x/sync/errgroup"
)

// shape is the size of the seeded dataset.
type shape struct {
	// SpacesA is the number of spaces of organization A, which the point
	// reads rotate over and the list page reads from.
	SpacesA int
	// SpacesB is the number of spaces of organization B, each with
	// ChangeRequests open change requests: the nested GraphQL read loads
	// them all.
	SpacesB, ChangeRequests int
	// HeavyPages is the number of pages of the heavy mix's space.
	HeavyPages int
}

// defaultShape is the dataset of the published figures.
var defaultShape = shape{SpacesA: 1000, SpacesB: 50, ChangeRequests: 10, HeavyPages: 251}

// maxPage bounds SpacesB and ChangeRequests: the nested read asks for them
// in one page each, and the list workload reads pages of this size.
const maxPage = 50

func (s shape) check() error {
	if s.SpacesA < 1 || s.SpacesB < 1 || s.ChangeRequests < 1 || s.HeavyPages < 1 {
		return fmt.Errorf("%w: the dataset needs at least one space in each organization, one change request per space and one page in the heavy mix's space", errUsage)
	}
	if s.SpacesB > maxPage || s.ChangeRequests > maxPage {
		return fmt.Errorf("%w: organization B's spaces and their change requests are read in one page each: at most %d", errUsage, maxPage)
	}
	return nil
}

// dataset is what seeding created.
type dataset struct {
	OrgA, OrgB string
	// SpacesA and SpacesB are the spaces' IDs in creation order.
	SpacesA, SpacesB []string
	// ChangeRequests is the number of change requests created.
	ChangeRequests int
	// Heavy is the heavy mix's data; nil when it does not run.
	Heavy *heavyData
}

// memberFunc makes a second user an editor of an organization and returns
// their API token. The benchmark uses the CLI (bindery token create), as an
// administrator would; Bindery's API cannot add a member without an invite.
type memberFunc func(ctx context.Context, orgID string) (string, error)

// seed creates the dataset through the API, with concurrency requests in
// flight: two organizations of owner (a user with a token and no
// organization), organization A's spaces, and organization B's spaces with
// their open change requests, opened in turn by owner and by a second
// member, so that createdBy resolves to more than one user.
func seed(ctx context.Context, owner *apiClient, addMember memberFunc, s shape, concurrency int) (dataset, error) {
	var d dataset
	var err error
	if d.OrgA, err = createOrganization(ctx, owner, "Bench A"); err != nil {
		return d, err
	}
	if d.OrgB, err = createOrganization(ctx, owner, "Bench B"); err != nil {
		return d, err
	}
	token, err := addMember(ctx, d.OrgB)
	if err != nil {
		return d, fmt.Errorf("adding a second member: %w", err)
	}
	second := &apiClient{base: owner.base, token: token, http: owner.http}

	d.SpacesA = make([]string, s.SpacesA)
	d.SpacesB = make([]string, s.SpacesB)
	err = parallel(ctx, s.SpacesA+s.SpacesB, concurrency, func(ctx context.Context, i int) error {
		org, ids, n := d.OrgA, d.SpacesA, i
		if i >= s.SpacesA {
			org, ids, n = d.OrgB, d.SpacesB, i-s.SpacesA
		}
		var sp struct {
			ID string `json:"id"`
		}
		err := owner.rest(ctx, http.MethodPost, "/v1/orgs/"+org+"/spaces", map[string]any{"title": fmt.Sprintf("Space %d", n+1)}, &sp)
		ids[n] = sp.ID
		return err
	})
	if err != nil {
		return d, fmt.Errorf("creating spaces: %w", err)
	}

	err = parallel(ctx, s.SpacesB*s.ChangeRequests, concurrency, func(ctx context.Context, i int) error {
		by := owner
		if i%2 == 1 {
			by = second
		}
		body := map[string]any{"subject": fmt.Sprintf("Change %d", i%s.ChangeRequests+1)}
		return by.rest(ctx, http.MethodPost, "/v1/spaces/"+d.SpacesB[i/s.ChangeRequests]+"/change-requests", body, nil)
	})
	if err != nil {
		return d, fmt.Errorf("creating change requests: %w", err)
	}
	d.ChangeRequests = s.SpacesB * s.ChangeRequests
	return d, nil
}

func createOrganization(ctx context.Context, c *apiClient, title string) (string, error) {
	var res struct {
		CreateOrganization struct {
			Organization struct {
				ID string `json:"id"`
			} `json:"organization"`
		} `json:"createOrganization"`
	}
	err := c.graphql(ctx, `mutation($title: String!) { createOrganization(input: {title: $title}) { organization { id } } }`,
		map[string]any{"title": title}, &res)
	if err != nil {
		return "", fmt.Errorf("creating organization %q: %w", title, err)
	}
	return res.CreateOrganization.Organization.ID, nil
}

// parallel calls fn for 0..n-1 with at most workers calls at a time, and
// stops at the first error.
func parallel(ctx context.Context, n, workers int, fn func(ctx context.Context, i int) error) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error { return fn(ctx, i) })
	}
	return g.Wait()
}
