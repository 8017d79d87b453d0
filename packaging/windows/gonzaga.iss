; Inno Setup 6 script: the Windows installer of the one-folder build (dist\Gonzaga).
;   iscc /DAppVersion=0.2.0 /DDist=dist\Gonzaga /DOutDir=out packaging\windows\gonzaga.iss
; The release workflow passes the version read from gonzaga/version.py. Installs per user (no
; administrator rights needed), with a Start menu entry, an optional desktop icon and an
; uninstaller; saves and settings in %LOCALAPPDATA%\Gonzaga are left in place on uninstall.
#ifndef AppVersion
  #error Pass /DAppVersion=X.Y.Z (the version in gonzaga/version.py)
#endif
#ifndef Dist
  #define Dist "..\..\dist\Gonzaga"
#endif
#ifndef OutDir
  #define OutDir "..\..\out"
#endif

[Setup]
AppId={{8C1F5B4E-2D7A-4C3B-9E61-6A0D2F4B7C19}
AppName=Gonzaga
AppVersion={#AppVersion}
AppVerName=Gonzaga {#AppVersion}
AppPublisher=Gonzaga, digital edition (unofficial adaptation)
AppCopyright=MIT License. Unofficial adaptation of Gonzaga by Guglielmo Duccoli (daVinci Editrice, 2009).
VersionInfoVersion={#AppVersion}
DefaultDirName={autopf}\Gonzaga
DefaultGroupName=Gonzaga
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
LicenseFile={#Dist}\_internal\LICENSE
SetupIconFile=..\..\assets\icon\gonzaga.ico
UninstallDisplayIcon={app}\Gonzaga.exe
OutputDir={#OutDir}
OutputBaseFilename=Gonzaga-{#AppVersion}-windows-x64-setup
Compression=lzma2
SolidCompression=yes
WizardStyle=modern

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"
Name: "italian"; MessagesFile: "compiler:Languages\Italian.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#Dist}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\Gonzaga"; Filename: "{app}\Gonzaga.exe"
Name: "{autodesktop}\Gonzaga"; Filename: "{app}\Gonzaga.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\Gonzaga.exe"; Description: "{cm:LaunchProgram,Gonzaga}"; Flags: nowait postinstall skipifsilent
