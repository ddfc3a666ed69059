package rest

import (
	"context"
	"time"

	"github.com/bindery/bindery/ent"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/internal/apperr"
	"github.com/bindery/bindery/internal/enum"
)

// gitInfoBody is the official UpdateSpaceGitInfo.
type gitInfoBody struct {
	Provider *enum.GitProvider `json:"provider"`
	URL      *string           `json:"url"`
}

func (b *gitInfoBody) input() *model.GitInfoInput {
	if b == nil {
		return nil
	}
	return &model.GitInfoInput{Provider: b.Provider, URL: b.URL}
}

// gitImportBody is the official ImportGitRepository.
type gitImportBody struct {
	URL                  string       `json:"url" rest:"required"`
	Ref                  string       `json:"ref" rest:"required"`
	RepoCacheID          *string      `json:"repoCacheID"`
	RepoTreeURL          *string      `json:"repoTreeURL"`
	RepoCommitURL        *string      `json:"repoCommitURL"`
	RepoProjectDirectory *string      `json:"repoProjectDirectory"`
	Timestamp            *time.Time   `json:"timestamp"`
	Force                *bool        `json:"force"`
	Standalone           *bool        `json:"standalone"`
	GitInfo              *gitInfoBody `json:"gitInfo"`
}

func (b *gitImportBody) input(p params) (model.ImportGitRepositoryInput, error) {
	return model.ImportGitRepositoryInput{SpaceID: p.spaceID(), URL: b.URL, Ref: b.Ref, RepoCacheID: b.RepoCacheID,
		RepoTreeURL: b.RepoTreeURL, RepoCommitURL: b.RepoCommitURL, RepoProjectDirectory: b.RepoProjectDirectory,
		Timestamp: b.Timestamp, Force: b.Force, Standalone: b.Standalone, GitInfo: b.GitInfo.input()}, nil
}

// gitExportBody is the official ExportToGitRepository.
type gitExportBody struct {
	URL                  string       `json:"url" rest:"required"`
	Ref                  string       `json:"ref" rest:"required"`
	CommitMessage        string       `json:"commitMessage" rest:"required"`
	RepoCacheID          *string      `json:"repoCacheID"`
	RepoTreeURL          *string      `json:"repoTreeURL"`
	RepoCommitURL        *string      `json:"repoCommitURL"`
	RepoProjectDirectory *string      `json:"repoProjectDirectory"`
	Timestamp            *time.Time   `json:"timestamp"`
	Force                *bool        `json:"force"`
	GitInfo              *gitInfoBody `json:"gitInfo"`
}

func (b *gitExportBody) input(p params) (model.ExportToGitRepositoryInput, error) {
	return model.ExportToGitRepositoryInput{SpaceID: p.spaceID(), URL: b.URL, Ref: b.Ref, CommitMessage: b.CommitMessage,
		RepoCacheID: b.RepoCacheID, RepoTreeURL: b.RepoTreeURL, RepoCommitURL: b.RepoCommitURL,
		RepoProjectDirectory: b.RepoProjectDirectory, Timestamp: b.Timestamp, Force: b.Force, GitInfo: b.GitInfo.input()}, nil
}

// spaceGitInfo is the Git info of the space the path names: NotFound when
// it has none, as the official API answers.
func (p params) spaceGitInfo() (*ent.GitSync, error) {
	s, err := p.space()
	if err != nil {
		return nil, err
	}
	gs, err := p.a.r.Space().GitSync(p.ctx(), s)
	if err == nil && gs == nil {
		return nil, apperr.NotFoundf("No Git provider is set up on the space")
	}
	return gs, err
}

// gitSyncStateJSON is the official GitSyncState.
type gitSyncStateJSON struct {
	RepoName             string            `json:"repoName"`
	InstallationProvider *enum.GitProvider `json:"installationProvider,omitempty"`
	URL                  string            `json:"url"`
	UpdatedAt            string            `json:"updatedAt"`
}

func (a *API) presentGitSyncState(ctx context.Context, gs *ent.GitSync) (gitSyncStateJSON, error) {
	res := a.r.GitSyncState()
	name, err := res.RepoName(ctx, gs)
	if err != nil {
		return gitSyncStateJSON{}, err
	}
	url, err := res.URL(ctx, gs)
	if err != nil {
		return gitSyncStateJSON{}, err
	}
	return gitSyncStateJSON{RepoName: name, InstallationProvider: gs.Provider, URL: url,
		UpdatedAt: model.FormatTime(gs.UpdatedAt)}, nil
}
