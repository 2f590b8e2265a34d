import { act, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { matchesSearch } from '../../lib/paging';
import { renderWithProviders } from '../../test/renderWithProviders';
import { DeleteConfirmModal } from './DeleteConfirmModal';
import { EditModal } from './EditModal';
import { AddFormPanel, ListScreen } from './ListScreen';
import { PagedList } from './PagedList';
import { useListState } from './useListState';

interface Item {
  id: number;
  name: string;
}

const makeItems = (count: number): Item[] =>
  Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `Item ${String(i + 1).padStart(2, '0')}` }));

const byName = (item: Item, search: string) => matchesSearch(search, item.name);

function ClientList({ items, onEdit, onDelete }: { items: Item[]; onEdit?: (i: Item) => void; onDelete?: (i: Item) => void }) {
  return (
    <PagedList<Item>
      title="list"
      items={items}
      filter={byName}
      getKey={(item) => item.id}
      itemLabel={(item) => item.name}
      renderItem={(item) => <span>{item.name}</span>}
      onEdit={onEdit}
      onDelete={onDelete}
      canDelete={(item) => item.id !== 1}
      emptyText="empty-text"
      noResultsText="no-results-text"
    />
  );
}

const range = () => screen.getByTestId('list-range').textContent;
const rows = () => screen.queryAllByRole('listitem').map((li) => li.textContent);
const next = () => screen.getByRole('button', { name: /Siguiente/ });
const previous = () => screen.getByRole('button', { name: /Anterior/ });
const search = () => screen.getByRole('searchbox');
const perPage = () => screen.getByRole('combobox', { name: 'Por página' });

describe('PagedList (client-side paging)', () => {
  it("shows the first page, 'showing start-end of total' and page sizes 10/25/50 with 10 by default", () => {
    renderWithProviders(<ClientList items={makeItems(42)} />);
    expect(range()).toBe('Mostrando 1-10 de 42');
    expect(rows()).toHaveLength(10);
    expect(perPage()).toHaveValue('10');
    expect(within(perPage()).getAllByRole('option').map((o) => o.textContent)).toEqual(['10', '25', '50']);
  });

  it('disables previous on the first page and next on the last', async () => {
    const { user } = renderWithProviders(<ClientList items={makeItems(25)} />);
    expect(previous()).toBeDisabled();
    expect(next()).toBeEnabled();
    await user.click(next());
    await user.click(next());
    expect(range()).toBe('Mostrando 21-25 de 25');
    expect(next()).toBeDisabled();
    expect(previous()).toBeEnabled();
    await user.click(previous());
    expect(range()).toBe('Mostrando 11-20 de 25');
  });

  it('changing the page size goes back to page 1', async () => {
    const { user } = renderWithProviders(<ClientList items={makeItems(60)} />);
    await user.click(next());
    await user.click(next());
    expect(range()).toBe('Mostrando 21-30 de 60');
    await user.selectOptions(perPage(), '25');
    expect(range()).toBe('Mostrando 1-25 de 60');
    expect(rows()).toHaveLength(25);
  });

  it('snaps to the last page when the current page exceeds the total after filtering', async () => {
    const { user } = renderWithProviders(<ClientList items={makeItems(42)} />);
    for (let i = 0; i < 4; i += 1) await user.click(next());
    expect(range()).toBe('Mostrando 41-42 de 42');
    await user.type(search(), '1');
    // '1' matches Item 01, 10-19, 21, 31 and 41: 14 items, 2 pages.
    expect(range()).toBe('Mostrando 11-14 de 14');
    expect(rows()).toEqual(['Item 19', 'Item 21', 'Item 31', 'Item 41']);
    await user.clear(search());
    expect(range()).toBe('Mostrando 11-20 de 42');
  });

  it('searches case-insensitively', async () => {
    const { user } = renderWithProviders(<ClientList items={makeItems(12)} />);
    await user.type(search(), 'item 12');
    expect(rows()).toEqual(['Item 12']);
  });

  it('shows the empty text without a search and the no-results text with one', async () => {
    const { user, unmount } = renderWithProviders(<ClientList items={[]} />);
    expect(screen.getByTestId('list-empty')).toHaveTextContent('empty-text');
    expect(range()).toBe('Mostrando 0-0 de 0');
    expect(previous()).toBeDisabled();
    expect(next()).toBeDisabled();
    unmount();

    renderWithProviders(<ClientList items={makeItems(3)} />);
    await user.type(search(), 'zzz');
    expect(screen.getByTestId('list-empty')).toHaveTextContent('no-results-text');
  });

  it('offers edit and delete per row, delete disabled where the parent says so', async () => {
    const onEdit = vi.fn();
    const onDelete = vi.fn();
    const { user } = renderWithProviders(<ClientList items={makeItems(2)} onEdit={onEdit} onDelete={onDelete} />);
    await user.click(screen.getByRole('button', { name: 'Editar Item 02' }));
    expect(onEdit).toHaveBeenCalledWith({ id: 2, name: 'Item 02' });
    expect(screen.getByRole('button', { name: 'Eliminar Item 01' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Eliminar Item 02' }));
    expect(onDelete).toHaveBeenCalledWith({ id: 2, name: 'Item 02' });
  });

  it('snaps back when items disappear (e.g. after deleting the last row of the last page)', async () => {
    function Shrinking() {
      const [items, setItems] = useState(makeItems(11));
      return (
        <>
          <button type="button" onClick={() => setItems((list) => list.slice(0, -1))}>
            shrink
          </button>
          <ClientList items={items} />
        </>
      );
    }
    const { user } = renderWithProviders(<Shrinking />);
    await user.click(next());
    expect(range()).toBe('Mostrando 11-11 de 11');
    await user.click(screen.getByRole('button', { name: 'shrink' }));
    expect(range()).toBe('Mostrando 1-10 de 10');
    expect(next()).toBeDisabled();
  });

  it('supports the company page sizes 5/10/25 with 5 by default', () => {
    renderWithProviders(
      <PagedList<Item>
        title="companies"
        items={makeItems(12)}
        filter={byName}
        getKey={(item) => item.id}
        renderItem={(item) => item.name}
        pageSizes={[5, 10, 25]}
        defaultPageSize={5}
        emptyText="e"
        noResultsText="n"
      />,
    );
    expect(range()).toBe('Mostrando 1-5 de 12');
    expect(within(perPage()).getAllByRole('option').map((o) => o.textContent)).toEqual(['5', '10', '25']);
  });
});

describe('PagedList (server-side paging)', () => {
  /** A parent that fetches one page: it reads the list state and passes that page and the total. */
  function ServerList({
    all,
    onQuery,
    countedUpTo,
  }: {
    all: Item[];
    onQuery: (q: { search: string; page: number; pageSize: number }) => void;
    /** Like the report: count only this many matches and say the total is a lower bound. */
    countedUpTo?: number;
  }) {
    const state = useListState(10);
    onQuery({ search: state.search, page: state.page, pageSize: state.pageSize });
    const matching = all.filter((item) => byName(item, state.search));
    const pageItems = matching.slice((state.page - 1) * state.pageSize, state.page * state.pageSize);
    return (
      <PagedList<Item>
        mode="server"
        title="server"
        items={pageItems}
        total={countedUpTo !== undefined ? Math.min(countedUpTo, matching.length) : matching.length}
        totalIsLowerBound={countedUpTo !== undefined && matching.length > countedUpTo}
        state={state}
        getKey={(item) => item.id}
        renderItem={(item) => item.name}
        emptyText="e"
        noResultsText="n"
      />
    );
  }

  it('shows the page the parent supplies and asks for the next page', async () => {
    const queries: { page: number }[] = [];
    const { user } = renderWithProviders(<ServerList all={makeItems(30)} onQuery={(q) => queries.push(q)} />);
    expect(range()).toBe('Mostrando 1-10 de 30');
    await user.click(next());
    expect(queries.at(-1)).toMatchObject({ page: 2 });
    expect(rows()[0]).toBe('Item 11');
  });

  it('snaps the requested page to the last page when the total shrinks', async () => {
    const queries: { page: number; search: string }[] = [];
    const { user } = renderWithProviders(<ServerList all={makeItems(30)} onQuery={(q) => queries.push(q)} />);
    await user.click(next());
    await user.click(next());
    expect(range()).toBe('Mostrando 21-30 de 30');
    await act(async () => {
      await user.type(search(), '1');
    });
    // '1' matches Item 01, 10-19 and 21: 12 items, 2 pages.
    expect(queries.at(-1)).toMatchObject({ page: 2, search: '1' });
    expect(range()).toBe('Mostrando 11-12 de 12');
  });

  it('says "at least" when the total is a lower bound', async () => {
    const { user } = renderWithProviders(<ServerList all={makeItems(60)} onQuery={() => {}} countedUpTo={40} />);
    expect(range()).toBe('Mostrando 1-10 de al menos 40');
    await user.click(next());
    expect(rows()[0]).toBe('Item 11');
  });

  it('changing the page size asks for page 1', async () => {
    const queries: { page: number; pageSize: number }[] = [];
    const { user } = renderWithProviders(<ServerList all={makeItems(60)} onQuery={(q) => queries.push(q)} />);
    await user.click(next());
    await user.selectOptions(perPage(), '50');
    expect(queries.at(-1)).toMatchObject({ page: 1, pageSize: 50 });
  });
});

describe('list-screen pieces', () => {
  it('lays out the add form and the list, and submits the add form', async () => {
    const onSubmit = vi.fn();
    const { user } = renderWithProviders(
      <ListScreen
        title="screen"
        subtitle="subtitle"
        form={
          <AddFormPanel title="add" submitLabel="Agregar" onSubmit={onSubmit} error="bad input">
            <input aria-label="name" />
          </AddFormPanel>
        }
        list={<ClientList items={makeItems(1)} />}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('bad input');
    await user.click(screen.getByRole('button', { name: 'Agregar' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('the edit modal has Cancel and Update', async () => {
    const onCancel = vi.fn();
    const onSubmit = vi.fn();
    const { user } = renderWithProviders(
      <EditModal open title="Editar" onCancel={onCancel} onSubmit={onSubmit}>
        <input aria-label="name" />
      </EditModal>,
    );
    expect(screen.getByRole('dialog', { name: 'Editar' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Actualizar' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('the delete confirmation shows the soft or the hard text, then Cancel and Delete', async () => {
    const onConfirm = vi.fn();
    const { user, rerender } = renderWithProviders(
      <DeleteConfirmModal open name="Caja 1" soft={false} onCancel={() => {}} onConfirm={onConfirm} />,
    );
    expect(screen.getByTestId('delete-text')).toHaveTextContent('Se eliminará «Caja 1» de forma permanente.');
    rerender(<DeleteConfirmModal open name="Caja 1" soft onCancel={() => {}} onConfirm={onConfirm} />);
    expect(screen.getByTestId('delete-text')).toHaveTextContent('se desactivará en lugar de eliminarse');
    expect(screen.getByRole('button', { name: 'Cancelar' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Eliminar' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('the delete confirmation waits while the usage look-up runs', () => {
    renderWithProviders(<DeleteConfirmModal open name="x" checking onCancel={() => {}} onConfirm={() => {}} />);
    expect(screen.getByRole('button', { name: 'Eliminar' })).toBeDisabled();
    expect(screen.getByTestId('delete-text')).toHaveTextContent('Revisando registros relacionados');
  });

  it('Escape closes a dialog', async () => {
    const onCancel = vi.fn();
    const { user } = renderWithProviders(
      <EditModal open title="Editar" onCancel={onCancel} onSubmit={() => {}}>
        <input aria-label="name" />
      </EditModal>,
    );
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalled();
  });
});
