import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type DraggableAttributes,
  type DraggableSyntheticListeners,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** What a row needs to be dragged: put `handle` on its grip. */
export type DragHandle = { attributes: DraggableAttributes; listeners: DraggableSyntheticListeners; dragging: boolean };

function SortableRow({ id, children }: { id: string; children: (handle: DragHandle) => ReactNode }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id });
  return (
    <li
      ref={setNodeRef}
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        position: 'relative',
        zIndex: isDragging ? 10 : undefined,
        opacity: isDragging ? 0.85 : 1,
        listStyle: 'none',
      }}
    >
      {children({ attributes, listeners, dragging: isDragging })}
    </li>
  );
}

/**
 * A list reordered by dragging its rows' grips (mouse, touch, or the keyboard on the grip: Space to
 * lift, arrows to move, Space to drop). Each row also carries its own move up/down buttons, which is
 * what most people use on a phone.
 */
export function SortableList<T>(props: {
  items: readonly T[];
  id: (item: T) => string;
  label: string;
  /** Names an item in the screen reader's announcements. */
  name: (item: T) => string;
  onMove: (from: number, to: number) => void;
  children: (item: T, index: number, handle: DragHandle) => ReactNode;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = props.items.map(props.id);
  const nameOf = (id: string | number) => {
    const item = props.items[ids.indexOf(String(id))];
    return item === undefined ? '' : props.name(item);
  };
  const position = (id: string | number | undefined) => (id === undefined ? 0 : ids.indexOf(String(id)) + 1);
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('common.drag.picked', { name: nameOf(active.id), position: position(active.id), count: ids.length }),
    onDragOver: ({ active, over }) => t('common.drag.over', { name: nameOf(active.id), position: position(over?.id), count: ids.length }),
    onDragEnd: ({ active, over }) => t('common.drag.dropped', { name: nameOf(active.id), position: position(over?.id), count: ids.length }),
    onDragCancel: ({ active }) => t('common.drag.cancelled', { name: nameOf(active.id) }),
  };
  function end(e: DragEndEvent) {
    if (!e.over || e.active.id === e.over.id) return;
    props.onMove(ids.indexOf(String(e.active.id)), ids.indexOf(String(e.over.id)));
  }
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={end}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t('common.drag.instructions') } }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy} disabled={props.disabled ?? false}>
        <ul aria-label={props.label} style={{ margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 8 }}>
          {props.items.map((item, i) => (
            <SortableRow key={ids[i]} id={ids[i]!}>
              {(handle) => props.children(item, i, handle)}
            </SortableRow>
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}

/** The grip a row is dragged by. */
export function DragGrip({ handle, label }: { handle: DragHandle; label: string }) {
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      aria-label={label}
      {...handle.attributes}
      {...handle.listeners}
      style={{ cursor: handle.dragging ? 'grabbing' : 'grab', touchAction: 'none', flexShrink: 0 }}
    >
      <svg width="14" height="18" viewBox="0 0 14 18" aria-hidden focusable="false">
        {[3, 9, 15].flatMap((y) => [4, 10].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.6" fill="currentColor" />))}
      </svg>
    </ActionIcon>
  );
}

/** Move up / move down: reordering without dragging. */
export function MoveButtons(props: {
  index: number;
  count: number;
  name: string;
  onMove: (from: number, to: number) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <ActionIcon
        variant="subtle"
        size="lg"
        aria-label={t('common.drag.up', { name: props.name })}
        disabled={props.disabled || props.index === 0}
        onClick={() => props.onMove(props.index, props.index - 1)}
      >
        ↑
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        size="lg"
        aria-label={t('common.drag.down', { name: props.name })}
        disabled={props.disabled || props.index === props.count - 1}
        onClick={() => props.onMove(props.index, props.index + 1)}
      >
        ↓
      </ActionIcon>
    </>
  );
}
