import type { ScreenLoaders } from '../../app/screen-loader.js';

/** Screens of the users module (screen ids of the domain route table: users userProfile userPermission newusers). */
export const usersScreens: ScreenLoaders = {
  users: () => import('./users-page.js').then((m) => m.UsersPage),
  newusers: () => import('./users-page.js').then((m) => m.NewUsersPage),
  userProfile: () => import('./user-profile-page.js').then((m) => m.UserProfilePage),
  userPermission: () => import('./user-permission-page.js').then((m) => m.UserPermissionPage),
};
